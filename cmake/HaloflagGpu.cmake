# Chooses the GPU backend and tells targets how to compile GPU sources.
#
#   cuda: CUDA language, sources *.cu compiled by nvcc (sm_90 unless CMAKE_CUDA_ARCHITECTURES says otherwise).
#   hip : the whole build uses hipcc as its C++ compiler (CMAKE_CXX_COMPILER=hipcc), and the same *.cu
#         sources are compiled as HIP (-x hip) for HALOFLAG_HIP_ARCHITECTURES. Debian's ROCm puts its CMake
#         package where CMake 3.25's HIP language does not look, so hipcc is the robust route.
#   none: only the host backend.
include(CheckLanguage)

set(HALOFLAG_GPU_BACKEND none)
if(HALOFLAG_GPU STREQUAL "auto")
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(HALOFLAG_GPU_BACKEND cuda)
  endif()
elseif(HALOFLAG_GPU STREQUAL "cuda" OR HALOFLAG_GPU STREQUAL "hip")
  set(HALOFLAG_GPU_BACKEND ${HALOFLAG_GPU})
elseif(NOT HALOFLAG_GPU STREQUAL "none")
  message(FATAL_ERROR "HALOFLAG_GPU must be auto, cuda, hip or none (got '${HALOFLAG_GPU}')")
endif()

if(HALOFLAG_GPU_BACKEND STREQUAL "cuda")
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90)
  endif()
  enable_language(CUDA)
  # CMake 3.25 fails to detect nvcc 13's C++20 dialect; it is there, so tell CMake its flag.
  if(NOT CMAKE_CUDA20_COMPILE_FEATURES)
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_COMPILE_FEATURES cuda_std_20)
    list(APPEND CMAKE_CUDA_COMPILE_FEATURES cuda_std_20)
  endif()
  set(CMAKE_CUDA_STANDARD 20)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  find_package(CUDAToolkit REQUIRED)
elseif(HALOFLAG_GPU_BACKEND STREQUAL "hip")
  if(NOT CMAKE_CXX_COMPILER MATCHES "hipcc")
    message(FATAL_ERROR "The HIP build needs -DCMAKE_CXX_COMPILER=hipcc (got ${CMAKE_CXX_COMPILER})")
  endif()
  set(HALOFLAG_HIP_ARCHITECTURES "gfx90a;gfx908" CACHE STRING "AMD GPU targets of the HIP build")
  # hipcc compiles every *.cpp as HIP unless told otherwise; plain sources stay plain C++ and
  # the GPU sources' own "-x hip" (a source option, so later on the line) overrides this.
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-xc++>)
  # Without targets in its environment hipcc asks rocm_agent_enumerator for the local GPUs on
  # every call (none here: a traceback each time); name ours instead.
  string(REPLACE ";" "," hip_targets "${HALOFLAG_HIP_ARCHITECTURES}")
  set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env HCC_AMDGPU_TARGET=${hip_targets})
  set(CMAKE_CXX_LINKER_LAUNCHER ${CMAKE_COMMAND} -E env HCC_AMDGPU_TARGET=${hip_targets})
endif()

# A program whose GPU code comes from a library it links: listed for haloflag_gpu_targets as well,
# so that CI's HIP build links it.
function(haloflag_gpu_linked target)
  set_property(GLOBAL APPEND PROPERTY HALOFLAG_GPU_TARGETS ${target})
endfunction()

# Marks the listed *.cu sources of <target> for the GPU backend in use and links its runtime.
function(haloflag_gpu_sources target visibility)
  # Listed for the haloflag_gpu_targets target (the top-level CMakeLists.txt).
  set_property(GLOBAL APPEND PROPERTY HALOFLAG_GPU_TARGETS ${target})
  if(HALOFLAG_GPU_BACKEND STREQUAL "cuda")
    target_sources(${target} PRIVATE ${ARGN})
    target_compile_definitions(${target} ${visibility} HALOFLAG_HAVE_CUDA=1 HALOFLAG_HAVE_GPU=1)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -Xcompiler=-Wall>)
    target_link_libraries(${target} ${visibility} CUDA::cudart)
  elseif(HALOFLAG_GPU_BACKEND STREQUAL "hip")
    set(arch_flags)
    foreach(arch IN LISTS HALOFLAG_HIP_ARCHITECTURES)
      list(APPEND arch_flags --offload-arch=${arch})
    endforeach()
    set_source_files_properties(${ARGN} TARGET_DIRECTORY ${target} PROPERTIES
      LANGUAGE CXX COMPILE_OPTIONS "-x;hip;${arch_flags}")
    target_sources(${target} PRIVATE ${ARGN})
    # Plain C++ files that include the HIP runtime header must name the platform themselves.
    target_compile_definitions(${target} ${visibility} HALOFLAG_HAVE_HIP=1 HALOFLAG_HAVE_GPU=1 __HIP_PLATFORM_AMD__=1)
    target_link_options(${target} ${visibility} ${arch_flags})
  endif()
endfunction()
