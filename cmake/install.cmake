# Install rules: the library with its headers and CMake/pkg-config packages, the programs
# with man pages and bash completions, and the shipped small tables.
include(CMakePackageConfigHelpers)

install(TARGETS loyd EXPORT loydTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime)
install(DIRECTORY common/loyd/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/loyd COMPONENT dev
  FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_BINARY_DIR}/generated/loyd/base/version.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/loyd/base COMPONENT dev)

set(loyd_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/loyd)
install(EXPORT loydTargets NAMESPACE loyd:: DESTINATION ${loyd_cmake_dir} COMPONENT dev)
configure_package_config_file(cmake/loydConfig.cmake.in ${PROJECT_BINARY_DIR}/loydConfig.cmake
  INSTALL_DESTINATION ${loyd_cmake_dir} PATH_VARS CMAKE_INSTALL_DATADIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/loydConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/loydConfig.cmake ${PROJECT_BINARY_DIR}/loydConfigVersion.cmake
  DESTINATION ${loyd_cmake_dir} COMPONENT dev)
file(RELATIVE_PATH LOYD_PC_TO_PREFIX "/root/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/root")
configure_file(cmake/loyd.pc.in ${PROJECT_BINARY_DIR}/loyd.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/loyd.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)

if(LOYD_BUILD_PROGRAMS)
  install(TARGETS solver pdbgen RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
  install(DIRECTORY data/8-fringe data/8-4-4 data/15-5-5-5
    DESTINATION ${CMAKE_INSTALL_DATADIR}/loyd/pdb COMPONENT runtime)
endif()
