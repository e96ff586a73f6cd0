# The configure step's report on the nccl strategy (cmake/HaloflagNccl.cmake), without NCCL:
# each case configures tests/package/nccl_report in a scratch folder with only the places it
# names to search (no system folders, no $NCCL_ROOT, a python3 of the case's own), and checks
# the line it prints. Run by CTest, with the build's generator and its build program (which the
# cases, searching no system folder, would not find themselves):
#   cmake -DSOURCE_DIR=<haloflag> -DWORK_DIR=<scratch> -DGENERATOR=<name> -DMAKE_PROGRAM=<path>
#         -P run_nccl_report.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT SOURCE_DIR OR NOT WORK_DIR OR NOT GENERATOR OR NOT MAKE_PROGRAM)
  message(FATAL_ERROR "usage: cmake -DSOURCE_DIR=<haloflag> -DWORK_DIR=<scratch> "
                      "-DGENERATOR=<name> -DMAKE_PROGRAM=<path> -P run_nccl_report.cmake")
endif()
file(REMOVE_RECURSE ${WORK_DIR})
# WORK_DIR as it stands in a regex.
string(REGEX REPLACE "([][+.*()^$?|\\])" "\\\\\\1" work "${WORK_DIR}")
file(MAKE_DIRECTORY ${WORK_DIR})

# A python3 that prints `output` (the folders cmake/nccl_python_dirs.py would print).
function(fake_python name output)
  file(WRITE ${WORK_DIR}/${name} "#!/bin/sh\nprintf '%s\\n' '${output}'\n")
  file(CHMOD ${WORK_DIR}/${name} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
endfunction()

# An installation with nccl.h of `version` under `prefix`/include, its library under `lib`.
function(fake_nccl prefix version lib)
  string(REPLACE "." ";" parts ${version})
  list(GET parts 0 major)
  list(GET parts 1 minor)
  list(GET parts 2 patch)
  file(WRITE ${prefix}/include/nccl.h
    "#define NCCL_MAJOR ${major}\n#define NCCL_MINOR ${minor}\n#define NCCL_PATCH ${patch}\n")
  file(WRITE ${prefix}/${lib} "")
endfunction()

# Configures the probe with `ARGN` (and the environment entries of `case_environment`) and checks
# its output against `expected` (a regex); a `configure_fails` case must fail to configure.
function(report_case name expected configure_fails)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env --unset=NCCL_ROOT --unset=RCCL_ROOT --unset=ROCM_PATH
            ${case_environment}
            ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/package/nccl_report -B ${WORK_DIR}/${name}
            -G ${GENERATOR} -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}
            -DHALOFLAG_CMAKE_DIR=${SOURCE_DIR}/cmake -DCMAKE_FIND_USE_CMAKE_SYSTEM_PATH=OFF
            -DCMAKE_FIND_USE_SYSTEM_ENVIRONMENT_PATH=OFF -DCMAKE_FIND_USE_CMAKE_ENVIRONMENT_PATH=OFF
            ${ARGN}
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE result)
  if(configure_fails AND result EQUAL 0)
    message(FATAL_ERROR "${name}: configure should have failed:\n${out}${err}")
  elseif(NOT configure_fails AND NOT result EQUAL 0)
    message(FATAL_ERROR "${name}: configure failed:\n${out}${err}")
  endif()
  if(NOT "${out}${err}" MATCHES "${expected}")
    message(FATAL_ERROR "${name}: expected /${expected}/ in:\n${out}${err}")
  endif()
  message(STATUS "${name}: ok")
endfunction()

set(no_python -DHALOFLAG_PYTHON3=${WORK_DIR}/python_none)
fake_python(python_none "")

report_case(host_only "nccl strategy: not built: the host-only build \\(HALOFLAG_GPU=none\\)" FALSE
  -DBACKEND=none)
report_case(switched_off "nccl strategy: not built: left out by -DHALOFLAG_NCCL=off" FALSE
  -DBACKEND=cuda -DHALOFLAG_NCCL=off)
report_case(not_found
  "not built: NCCL not found in HALOFLAG_NCCL_ROOT, \\$NCCL_ROOT, the CUDA toolkit's folders, python3's nvidia/nccl package and the system's folders \\(set NCCL_ROOT or -DHALOFLAG_NCCL_ROOT to an installation\\)"
  FALSE -DBACKEND=cuda -DHALOFLAG_NCCL_ROOT=${WORK_DIR}/empty ${no_python})
report_case(required_but_absent "-DHALOFLAG_NCCL=on, but the nccl strategy cannot be built: NCCL"
  TRUE -DBACKEND=cuda -DHALOFLAG_NCCL=on ${no_python})
report_case(rccl_not_found
  "not built: RCCL not found .*\\$ROCM_PATH, /opt/rocm and the system's folders \\(set RCCL_ROOT" FALSE
  -DBACKEND=hip -DHALOFLAG_NCCL_ROOT=${WORK_DIR}/empty)

# Found: in HALOFLAG_NCCL_ROOT, and in the Python package's folder (lib/libnccl.so.2 only, as
# pip's wheels have it), the root first when both have one.
fake_nccl(${WORK_DIR}/root 2.21.5 lib/libnccl.so)
fake_nccl(${WORK_DIR}/site-packages/nvidia/nccl 2.26.2 lib/libnccl.so.2)
fake_nccl(${WORK_DIR}/old 2.12.10 lib/libnccl.so)
fake_python(python_nccl ${WORK_DIR}/site-packages/nvidia/nccl)
report_case(from_root
  "nccl strategy: built with NCCL 2.21.5 \\(${work}/root/include/nccl.h, ${work}/root/lib/libnccl.so\\)"
  FALSE -DBACKEND=cuda -DHALOFLAG_NCCL_ROOT=${WORK_DIR}/root
  -DHALOFLAG_PYTHON3=${WORK_DIR}/python_nccl)
report_case(from_python
  "built with NCCL 2.26.2 \\(${work}/site-packages/nvidia/nccl/include/nccl.h, ${work}/site-packages/nvidia/nccl/lib/libnccl.so.2\\)"
  FALSE -DBACKEND=cuda -DHALOFLAG_PYTHON3=${WORK_DIR}/python_nccl)
report_case(too_old "nccl strategy: not built: NCCL 2.12.10 at .* is older than 2.14" FALSE
  -DBACKEND=cuda -DHALOFLAG_NCCL_ROOT=${WORK_DIR}/old ${no_python})

# The real cmake/nccl_python_dirs.py finds a wheel's folder on python3's path.
find_program(python3 NAMES python3)
if(python3)
  fake_nccl(${WORK_DIR}/wheel/nvidia/nccl 2.27.3 lib/libnccl.so.2)
  set(case_environment PYTHONPATH=${WORK_DIR}/wheel)
  report_case(python_script
    "nccl strategy: built with NCCL 2.27.3 \\(${work}/wheel/nvidia/nccl/include/nccl.h"
    FALSE -DBACKEND=cuda -DHALOFLAG_PYTHON3=${python3})
  unset(case_environment)
endif()
