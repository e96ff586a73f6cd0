# The library behind the nccl strategy: NCCL for the CUDA backend, RCCL for HIP. Sets
#   HALOFLAG_NCCL_FOUND        TRUE when the strategy is built
#   HALOFLAG_NCCL_NAME         NCCL or RCCL
#   HALOFLAG_NCCL_INCLUDE_DIR  where nccl.h (RCCL: rccl/rccl.h) is
#   HALOFLAG_NCCL_LIBRARY      the library to link
#   HALOFLAG_NCCL_NOTE         one line: the version and where it came from, or why the strategy
#                              is not built (the configure report, halo_bench's heading, --help)
# NCCL is looked for, in this order, in HALOFLAG_NCCL_ROOT, $NCCL_ROOT, the CUDA toolkit's
# folders, the nvidia/nccl folder of python3's NCCL package (pip's nvidia-nccl-cu12/-cu13, there
# beside PyTorch on machines without internet; cmake/nccl_python_dirs.py finds it), then the
# system's default places; RCCL in HALOFLAG_NCCL_ROOT, $RCCL_ROOT, $ROCM_PATH and /opt/rocm, then
# the default places. The header and the library come from the same place where it has both.
# HALOFLAG_NCCL=off leaves the strategy out; on makes a missing library a configure error.
set(HALOFLAG_NCCL "auto" CACHE STRING
  "the nccl strategy: auto (built where NCCL, or RCCL for HIP, is found), on (required) or off")
set_property(CACHE HALOFLAG_NCCL PROPERTY STRINGS auto on off)
set(HALOFLAG_NCCL_ROOT "" CACHE PATH
  "an NCCL (RCCL) installation with include/ and lib/, searched before any other place")

# The notes are joined from pieces (string(CONCAT)), so none may hold a semicolon.
# Non-blocking communicators (ncclConfig_t::blocking) and ncclCommFinalize came with NCCL 2.14.
set(haloflag_nccl_minimum 2.14)

# Where a header was found, the installation's folder: its library is looked for there first.
function(haloflag_nccl_prefix include_dir out)
  get_filename_component(prefix "${include_dir}" DIRECTORY)
  set(${out} "${prefix}" PARENT_SCOPE)
endfunction()

# NCCL_MAJOR.NCCL_MINOR.NCCL_PATCH of `header`.
function(haloflag_nccl_header_version header out)
  file(STRINGS "${header}" defines REGEX "^#define NCCL_(MAJOR|MINOR|PATCH) +[0-9]+")
  set(version "")
  foreach(part MAJOR MINOR PATCH)
    string(REGEX MATCH "#define NCCL_${part} +([0-9]+)" matched "${defines}")
    string(APPEND version "${CMAKE_MATCH_1}.")
  endforeach()
  string(REGEX REPLACE "\\.$" "" version "${version}")
  set(${out} "${version}" PARENT_SCOPE)
endfunction()

# Searches the listed `roots` (each with include/ and lib/ or lib64/ below it) and `extra`
# folders first, then the default places.
function(haloflag_nccl_search header library)
  set(roots ${ARGN})
  # A changed root is searched again, not hidden behind the last configure's result.
  if(NOT "${roots}" STREQUAL "${HALOFLAG_NCCL_SEARCHED}")
    unset(HALOFLAG_NCCL_INCLUDE_DIR CACHE)
    unset(HALOFLAG_NCCL_LIBRARY CACHE)
    set(HALOFLAG_NCCL_SEARCHED "${roots}" CACHE INTERNAL "the places the last search went through")
  endif()
  find_path(HALOFLAG_NCCL_INCLUDE_DIR NAMES ${header} HINTS ${roots} PATH_SUFFIXES include
    NO_DEFAULT_PATH)
  find_path(HALOFLAG_NCCL_INCLUDE_DIR NAMES ${header})
  set(library_hints)
  if(HALOFLAG_NCCL_INCLUDE_DIR)
    haloflag_nccl_prefix("${HALOFLAG_NCCL_INCLUDE_DIR}" prefix)
    list(APPEND library_hints "${prefix}")
  endif()
  find_library(HALOFLAG_NCCL_LIBRARY NAMES ${library} lib${library}.so.2 lib${library}.so.1
    HINTS ${library_hints} ${roots} PATH_SUFFIXES lib lib64 NO_DEFAULT_PATH)
  find_library(HALOFLAG_NCCL_LIBRARY NAMES ${library} lib${library}.so.2 lib${library}.so.1)
endfunction()

set(HALOFLAG_NCCL_FOUND FALSE)
set(HALOFLAG_NCCL_NAME NCCL)
if(HALOFLAG_GPU_BACKEND STREQUAL "hip")
  set(HALOFLAG_NCCL_NAME RCCL)
endif()
string(TOLOWER "${HALOFLAG_NCCL}" haloflag_nccl_mode)
if(NOT haloflag_nccl_mode MATCHES "^(auto|on|off)$")
  message(FATAL_ERROR "HALOFLAG_NCCL must be auto, on or off (got '${HALOFLAG_NCCL}')")
endif()

if(HALOFLAG_GPU_BACKEND STREQUAL "none")
  set(HALOFLAG_NCCL_NOTE "the host-only build (HALOFLAG_GPU=none) has no GPU memory for "
                         "NCCL to move")
elseif(haloflag_nccl_mode STREQUAL "off")
  set(HALOFLAG_NCCL_NOTE "left out by -DHALOFLAG_NCCL=off")
else()
  if(HALOFLAG_GPU_BACKEND STREQUAL "cuda")
    set(haloflag_nccl_places "HALOFLAG_NCCL_ROOT, \$NCCL_ROOT, the CUDA toolkit's folders, "
                             "python3's nvidia/nccl package and the system's folders")
    set(haloflag_nccl_root_variable NCCL_ROOT)
    set(haloflag_nccl_roots ${HALOFLAG_NCCL_ROOT} $ENV{NCCL_ROOT} ${CUDAToolkit_LIBRARY_ROOT}
                            ${CUDAToolkit_TARGET_DIR} ${CUDAToolkit_INCLUDE_DIRS})
    find_program(HALOFLAG_PYTHON3 NAMES python3)
    if(HALOFLAG_PYTHON3)
      execute_process(
        COMMAND ${HALOFLAG_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/nccl_python_dirs.py
        OUTPUT_VARIABLE haloflag_nccl_python_dirs ERROR_QUIET TIMEOUT 60)
      string(REPLACE "\n" ";" haloflag_nccl_python_dirs "${haloflag_nccl_python_dirs}")
      list(APPEND haloflag_nccl_roots ${haloflag_nccl_python_dirs})
    endif()
    haloflag_nccl_search(nccl.h nccl ${haloflag_nccl_roots})
    set(haloflag_nccl_header "${HALOFLAG_NCCL_INCLUDE_DIR}/nccl.h")
  else()
    set(haloflag_nccl_places "HALOFLAG_NCCL_ROOT, \$RCCL_ROOT, \$ROCM_PATH, /opt/rocm and the "
                             "system's folders")
    set(haloflag_nccl_root_variable RCCL_ROOT)
    haloflag_nccl_search(rccl/rccl.h rccl ${HALOFLAG_NCCL_ROOT} $ENV{RCCL_ROOT} $ENV{ROCM_PATH}
                         /opt/rocm)
    set(haloflag_nccl_header "${HALOFLAG_NCCL_INCLUDE_DIR}/rccl/rccl.h")
  endif()
  string(CONCAT haloflag_nccl_places ${haloflag_nccl_places})
  if(NOT HALOFLAG_NCCL_INCLUDE_DIR OR NOT HALOFLAG_NCCL_LIBRARY)
    set(HALOFLAG_NCCL_NOTE "${HALOFLAG_NCCL_NAME} not found in ${haloflag_nccl_places} (set "
                           "${haloflag_nccl_root_variable} or -DHALOFLAG_NCCL_ROOT to an "
                           "installation)")
  else()
    haloflag_nccl_header_version("${haloflag_nccl_header}" haloflag_nccl_version)
    if(haloflag_nccl_version VERSION_LESS haloflag_nccl_minimum)
      set(HALOFLAG_NCCL_NOTE "${HALOFLAG_NCCL_NAME} ${haloflag_nccl_version} at "
                             "${HALOFLAG_NCCL_INCLUDE_DIR} is older than ${haloflag_nccl_minimum}, "
                             "which the strategy's non-blocking communicator needs")
    else()
      set(HALOFLAG_NCCL_FOUND TRUE)
      set(HALOFLAG_NCCL_NOTE "${HALOFLAG_NCCL_NAME} ${haloflag_nccl_version} "
                             "(${haloflag_nccl_header}, ${HALOFLAG_NCCL_LIBRARY})")
    endif()
  endif()
endif()
string(CONCAT HALOFLAG_NCCL_NOTE ${HALOFLAG_NCCL_NOTE})

if(HALOFLAG_NCCL_FOUND)
  message(STATUS "haloflag: nccl strategy: built with ${HALOFLAG_NCCL_NOTE}")
elseif(haloflag_nccl_mode STREQUAL "on")
  message(FATAL_ERROR "haloflag: -DHALOFLAG_NCCL=on, but the nccl strategy cannot be built: "
                      "${HALOFLAG_NCCL_NOTE}")
else()
  message(STATUS "haloflag: nccl strategy: not built: ${HALOFLAG_NCCL_NOTE}")
endif()
