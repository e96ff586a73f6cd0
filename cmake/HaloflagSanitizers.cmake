# Instrumented builds (docs/reliability.md, "Fuzzing and sanitizers").
#
#   HALOFLAG_SANITIZE=address,undefined  compiles and links all host C++ code with these
#       sanitizers (any list -fsanitize= takes); every report is fatal (-fno-sanitize-recover=all).
#       GCC and clang both work; scripts/checks/sanitize.sh builds the host backend this way.
#   HALOFLAG_FUZZ=ON  (clang only) adds libFuzzer's coverage instrumentation to all host code and
#       builds the fuzz targets of tests/fuzz as libFuzzer binaries, with address,undefined unless
#       HALOFLAG_SANITIZE names others; scripts/checks/fuzz.sh builds and runs them.
# Only host C++ is instrumented: CUDA sources go through nvcc untouched, and with a GPU backend
# AddressSanitizer needs ASAN_OPTIONS=protect_shadow_gap=0 to let the GPU runtime map memory.
set(HALOFLAG_SANITIZE "" CACHE STRING "Sanitizers for host code, e.g. address,undefined (empty: none)")
option(HALOFLAG_FUZZ "Build the libFuzzer targets of tests/fuzz (needs clang)" OFF)

set(haloflag_sanitizers "${HALOFLAG_SANITIZE}")
if(HALOFLAG_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "HALOFLAG_FUZZ needs clang for libFuzzer: configure with "
                        "-DCMAKE_CXX_COMPILER=clang++ (the C++ compiler is ${CMAKE_CXX_COMPILER_ID} "
                        "${CMAKE_CXX_COMPILER})")
  endif()
  if(haloflag_sanitizers STREQUAL "")
    set(haloflag_sanitizers "address,undefined")
  endif()
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=fuzzer-no-link>)
  message(STATUS "haloflag: libFuzzer targets of tests/fuzz on")
endif()

if(NOT haloflag_sanitizers STREQUAL "")
  # Frame pointers keep the reports' stacks whole at any optimisation level.
  set(haloflag_sanitizer_flags
    -fsanitize=${haloflag_sanitizers} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  foreach(flag IN LISTS haloflag_sanitizer_flags)
    add_compile_options($<$<COMPILE_LANGUAGE:CXX>:${flag}>)
    add_link_options($<$<LINK_LANGUAGE:CXX>:${flag}>)
  endforeach()
  message(STATUS "haloflag: host code instrumented with -fsanitize=${haloflag_sanitizers}")
endif()
