# What the stencil examples' CMakeLists.txt share (examples/jacobi2d, examples/jacobi3d), included
# after their project() both in the haloflag tree and where an example is built on its own
# against an installed haloflag:
#  - on its own: C++20, the installed package, MPI, and the package's GPU settings (CUDA language
#    and architectures, or HIP through hipcc) and warning flags, so that the example compiles its
#    GPU source as the library was compiled;
#  - haloflag_example_common (this folder) where the build has no such target yet;
#  - haloflag_stencil_example(), an example's library and program (and, in the tree, its tests);
#  - for the examples' tests/: haloflag_stencil_reference_tests(), haloflag_stencil_cli_test()
#    and haloflag_stencil_cli_failure().
if(CMAKE_SOURCE_DIR STREQUAL CMAKE_CURRENT_SOURCE_DIR)
  set(CMAKE_CXX_STANDARD 20)
  set(CMAKE_CXX_STANDARD_REQUIRED ON)
  set(CMAKE_CXX_EXTENSIONS OFF)
  find_package(haloflag REQUIRED)
  find_package(MPI REQUIRED COMPONENTS CXX)
  set(HALOFLAG_GPU ${HALOFLAG_GPU_BACKEND})
  include(${HALOFLAG_CMAKE_MODULE_DIR}/HaloflagGpu.cmake)
  include(${HALOFLAG_CMAKE_MODULE_DIR}/HaloflagWarnings.cmake)
  set(stencil_example_in_tree OFF)
else()
  set(stencil_example_in_tree ON)
endif()
find_package(nlohmann_json CONFIG REQUIRED)
find_package(CLI11 CONFIG REQUIRED)

if(NOT TARGET haloflag_example_common)
  add_subdirectory(${CMAKE_CURRENT_LIST_DIR} ${CMAKE_CURRENT_BINARY_DIR}/example_common)
endif()

# haloflag_stencil_example(<name> CORE <sources> GPU <sources> NO_GPU <source> PROGRAM <sources>)
# haloflag_<name>_core: the problem, the variants, the reference and the check (everything but
# the command line), with the GPU sources on a GPU backend or their stand-in without one;
# haloflag_<name>: the program; in the haloflag tree with tests on, the folder tests/.
function(haloflag_stencil_example name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "NO_GPU" "CORE;GPU;PROGRAM")
  set(core haloflag_${name}_core)
  add_library(${core} STATIC ${arg_CORE})
  target_include_directories(${core} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/src)
  target_link_libraries(${core} PUBLIC haloflag_example_common haloflag::halo MPI::MPI_CXX)
  if(HALOFLAG_GPU_BACKEND STREQUAL "none")
    target_sources(${core} PRIVATE ${arg_NO_GPU})
  else()
    haloflag_gpu_sources(${core} PRIVATE ${arg_GPU})
  endif()
  haloflag_set_warnings(${core})

  add_executable(haloflag_${name} ${arg_PROGRAM})
  target_link_libraries(haloflag_${name} PRIVATE
    ${core} haloflag_bench_common nlohmann_json::nlohmann_json CLI11::CLI11)
  haloflag_set_warnings(haloflag_${name})
  if(NOT HALOFLAG_GPU_BACKEND STREQUAL "none")  # the program links the GPU core
    set_property(GLOBAL APPEND PROPERTY HALOFLAG_GPU_TARGETS haloflag_${name})
  endif()

  if(stencil_example_in_tree AND HALOFLAG_BUILD_TESTS AND COMMAND haloflag_add_mpi_test)
    add_subdirectory(tests)
  endif()
endfunction()

# haloflag_stencil_reference_tests(<name> SOURCE <file> RANKS <n>...)
# <name>_reference_mpi_test (its variants against the single-device reference) at each rank
# count, with MPI_THREAD_MULTIPLE (HALOFLAG_TEST_MPI_THREAD) for the stream variant's progress
# thread; on a GPU backend also <name>_reference_<backend> at 1 and 2 ranks, one rank per GPU or
# ranks sharing one under MPS (run_with_mps.sh).
function(haloflag_stencil_reference_tests name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SOURCE" "RANKS")
  get_directory_property(HALOFLAG_MPI_TEST_ENV DIRECTORY ${PROJECT_SOURCE_DIR}/tests
    DEFINITION HALOFLAG_MPI_TEST_ENV)
  haloflag_add_mpi_test(${name}_reference_mpi_test SOURCES ${arg_SOURCE}
    LIBS haloflag_${name}_core RANKS ${arg_RANKS})
  foreach(np IN LISTS arg_RANKS)
    set_property(TEST ${name}_reference_mpi_test_np${np} APPEND PROPERTY
      ENVIRONMENT HALOFLAG_TEST_MPI_THREAD=multiple)
  endforeach()
  if(NOT HALOFLAG_GPU_BACKEND STREQUAL "none")
    haloflag_add_mpi_jobs(${name}_reference_${HALOFLAG_GPU_BACKEND}
      TARGET ${name}_reference_mpi_test RANKS 1 2 LABELS mpi gpu FILTER "*"
      ENVIRONMENT HALOFLAG_TEST_MPI_THREAD=multiple HALOFLAG_TEST_BACKEND=${HALOFLAG_GPU_BACKEND}
      LAUNCHER ${PROJECT_SOURCE_DIR}/scripts/gpu/run_with_mps.sh LOCK gpu)
  endif()
endfunction()

# haloflag_stencil_cli_test(<name> <test> EXPECT <regex> ARGS <arguments>...)
# <name>_cli_<test>: the program as a user runs it, under mpiexec on 2 ranks; it passes when
# its output matches <regex>.
function(haloflag_stencil_cli_test name test)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "EXPECT" "ARGS")
  get_directory_property(HALOFLAG_MPI_TEST_ENV DIRECTORY ${PROJECT_SOURCE_DIR}/tests
    DEFINITION HALOFLAG_MPI_TEST_ENV)
  add_test(NAME ${name}_cli_${test}
    COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${MPIEXEC_PREFLAGS}
            $<TARGET_FILE:haloflag_${name}> ${MPIEXEC_POSTFLAGS} ${arg_ARGS})
  set_tests_properties(${name}_cli_${test} PROPERTIES
    TIMEOUT ${HALOFLAG_TEST_TIMEOUT} PROCESSORS 2 LABELS mpi ENVIRONMENT "${HALOFLAG_MPI_TEST_ENV}"
    PASS_REGULAR_EXPRESSION "${arg_EXPECT}")
endfunction()

# haloflag_stencil_cli_failure(<name> <test> <ranks> <expect> <arguments>...)
# <name>_cli_<test>: bad input on <ranks> ranks; it passes when the program exits non-zero with
# a message on stderr that matches <expect>.
function(haloflag_stencil_cli_failure name test ranks expect)
  get_directory_property(HALOFLAG_MPI_TEST_ENV DIRECTORY ${PROJECT_SOURCE_DIR}/tests
    DEFINITION HALOFLAG_MPI_TEST_ENV)
  add_test(NAME ${name}_cli_${test}
    COMMAND ${CMAKE_COMMAND}
      "-DCOMMAND=${MPIEXEC_EXECUTABLE};${MPIEXEC_NUMPROC_FLAG};${ranks};$<TARGET_FILE:haloflag_${name}>"
      "-DARGS=${ARGN}" "-DEXPECT=${expect}"
      -P ${PROJECT_SOURCE_DIR}/tests/support/expect_failure.cmake)
  set_tests_properties(${name}_cli_${test} PROPERTIES
    TIMEOUT 120 PROCESSORS 2 LABELS mpi ENVIRONMENT "${HALOFLAG_MPI_TEST_ENV}")
endfunction()
