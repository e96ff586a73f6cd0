# CTest's jobs for the Python package: pytest on every rank of an mpiexec job at 2 and 4 ranks,
# the GPU tests on 2 (skipped, saying why, without a GPU): the GPU fields and the resident
# kernels beside the array libraries' device-wide waits (test_coexistence.py), and at 2 ranks an
# exit with exchanges left open, the README's "From Python" example and examples/python/jacobi3d.py.
set(python_test_env
  "PYTHONPATH=${CMAKE_CURRENT_BINARY_DIR}:${PROJECT_SOURCE_DIR}/tests/python"
  PYTHONDONTWRITEBYTECODE=1
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
  PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe)
set(python_tests "${PROJECT_SOURCE_DIR}/tests/python")

# A job `name`_np<N> per rank count that runs Python with `ARGS` on every rank; GPU jobs go
# through scripts/gpu/run_with_mps.sh, which starts MPS where the ranks share a GPU.
function(haloflag_add_python_test name)
  cmake_parse_arguments(arg "GPU" "" "RANKS;ARGS" ${ARGN})
  foreach(np IN LISTS arg_RANKS)
    set(launcher)
    if(arg_GPU)
      set(launcher "${PROJECT_SOURCE_DIR}/scripts/gpu/run_with_mps.sh" ${np})
    endif()
    add_test(NAME ${name}_np${np}
      COMMAND ${launcher} ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} ${MPIEXEC_PREFLAGS}
              "${Python_EXECUTABLE}" ${MPIEXEC_POSTFLAGS} ${arg_ARGS}
      WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
    set_tests_properties(${name}_np${np} PROPERTIES
      TIMEOUT ${HALOFLAG_TEST_TIMEOUT} PROCESSORS 1 LABELS "mpi;python" SKIP_RETURN_CODE 77
      ENVIRONMENT "${python_test_env}")
  endforeach()
endfunction()

haloflag_add_python_test(python_pytest RANKS 2 4
  ARGS "${python_tests}/run_pytest.py" "${python_tests}" --ignore=${python_tests}/test_gpu.py
       --ignore=${python_tests}/test_coexistence.py)
haloflag_add_python_test(python_gpu GPU RANKS 2
  ARGS "${python_tests}/run_pytest.py" "${python_tests}/test_gpu.py")
haloflag_add_python_test(python_gpu_coexistence GPU RANKS 2
  ARGS "${python_tests}/run_pytest.py" "${python_tests}/test_coexistence.py")
haloflag_add_python_test(python_exit_without_close RANKS 2
  ARGS "${python_tests}/exit_without_close.py")
haloflag_add_python_test(python_readme_example RANKS 2
  ARGS "${python_tests}/readme_example.py" "${PROJECT_SOURCE_DIR}/README.md")
haloflag_add_python_test(python_jacobi3d RANKS 2
  ARGS "${PROJECT_SOURCE_DIR}/examples/python/jacobi3d.py" --shape 16 20 24 --iterations 20)
