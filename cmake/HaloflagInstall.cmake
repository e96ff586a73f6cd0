# Install rules and the CMake package: an outside code does
#   find_package(haloflag REQUIRED)  and links haloflag::notify / haloflag::halo.
include(CMakePackageConfigHelpers)

install(TARGETS haloflag_notify haloflag_kernels haloflag_halo
  EXPORT haloflagTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT haloflagTargets NAMESPACE haloflag::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/haloflag)

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/haloflagConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/haloflagConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/haloflag)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/haloflagConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/haloflagConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/haloflagConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/haloflag)
# For consumers that compile GPU code of their own against haloflag's headers (examples/): the
# backend decision and haloflag_gpu_sources(), and the warning flags. The package config names
# their folder (HALOFLAG_CMAKE_MODULE_DIR); including them is the consumer's choice.
install(FILES ${CMAKE_CURRENT_LIST_DIR}/HaloflagGpu.cmake ${CMAKE_CURRENT_LIST_DIR}/HaloflagWarnings.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/haloflag)
