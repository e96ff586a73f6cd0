# cmake -P script: install, configure an outside project against the install, build it, run it.
# Each step that fails stops the script with a FATAL_ERROR naming the step.
#   BUILD_DIR, CONSUMER_SOURCE, WORK_DIR, CXX_COMPILER, PREFIX_PATH: as the names say
#   CONFIGURE_ARGS (optional, ;-list): more arguments for configuring the consumer
#   RUN (optional, ;-list): the command that runs it; default: the consumer's `consumer` program
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
# CMakeLists passes ;-lists with '|' in place of ';' (one -D argument each).
string(REPLACE "|" ";" CONFIGURE_ARGS "${CONFIGURE_ARGS}")
string(REPLACE "|" ";" RUN "${RUN}")
if(NOT DEFINED RUN OR RUN STREQUAL "")
  set(RUN ${WORK_DIR}/build/consumer)
endif()

function(run_step name)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${name} failed (${result}):\n${out}\n${err}")
  endif()
  message("${out}")
endfunction()

run_step("install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
run_step("configure consumer" ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE} -B ${WORK_DIR}/build
  -DCMAKE_CXX_COMPILER=${CXX_COMPILER} "-DCMAKE_PREFIX_PATH=${prefix};${PREFIX_PATH}"
  ${CONFIGURE_ARGS})
# On every core: the tests that call this run alone (RUN_SERIAL), and the out-of-tree Jacobi3D
# builds faster two files at a time than one.
cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
run_step("build consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/build --parallel ${cores})
run_step("run consumer" ${RUN})
