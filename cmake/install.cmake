# Install rules: the library with its headers and CMake/pkg-config packages, the programs
# with man pages and bash completions, and the shipped small tables.
include(CMakePackageConfigHelpers)

install(TARGETS loyd EXPORT loydTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime)
# The optional mpi family (loyd_mpi) is the programs' business, not the library's: its headers
# are not installed, so no consumer of loyd::loyd needs MPI. Neither are the internal headers
# below (the builders' and the rank split's working parts, byte and file plumbing): no
# installed header includes them (tests/install_test.sh compiles every installed header alone
# and checks these are absent), so they may change without notice.
set(loyd_internal_headers
  base/fd_input.h base/fd_output.h base/hex.h base/little_endian.h base/self_path.h base/wire.h
  heuristics/zero_aware_pdb.h search/prebuilt_pruning.h search/solve_runs_impl.h
  search/split_protocol.h
  tables/build_support.h tables/checkpoint.h tables/partition_search.h tables/region_space.h
  tables/state_codes.h)
set(loyd_header_excludes PATTERN "mpi" EXCLUDE)
foreach(h IN LISTS loyd_internal_headers)
  list(APPEND loyd_header_excludes REGEX "/${h}$" EXCLUDE)
endforeach()
install(DIRECTORY common/loyd/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/loyd COMPONENT dev
  FILES_MATCHING PATTERN "*.h" ${loyd_header_excludes})
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
string(REGEX REPLACE "/$" "" LOYD_PC_TO_PREFIX "${LOYD_PC_TO_PREFIX}")  # no "//" in the paths
configure_file(cmake/loyd.pc.in ${PROJECT_BINARY_DIR}/loyd.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/loyd.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)

if(LOYD_BUILD_PROGRAMS)
  install(TARGETS solver pdbgen RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
  install(FILES solver/solver.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
    RENAME solver COMPONENT runtime)
  install(FILES pdbgen/pdbgen.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
    RENAME pdbgen COMPONENT runtime)
  # Man pages generated from the programs' own --help and --version (Debian's help2man).
  find_program(LOYD_HELP2MAN help2man)
  if(LOYD_HELP2MAN)
    foreach(prog solver pdbgen)
      if(prog STREQUAL "solver")
        set(what "optimal sliding-tile puzzle solver")
      else()
        set(what "build, inspect and verify loyd's pattern databases")
      endif()
      # Each command's own --help (usage, output, exit status) in a COMMANDS section.
      set(commands ${PROJECT_BINARY_DIR}/man/${prog}.commands)
      add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/man/${prog}.1
        COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
        COMMAND sh ${PROJECT_SOURCE_DIR}/cmake/man_commands.sh $<TARGET_FILE:${prog}> > ${commands}
        # (--version-string: the first line of --version; its MPI line is no part of the page)
        COMMAND ${LOYD_HELP2MAN} --no-info --name "${what}" --include ${commands}
                --version-string "${prog} (loyd) ${PROJECT_VERSION}" --output ${PROJECT_BINARY_DIR}/man/${prog}.1
                $<TARGET_FILE:${prog}>
        DEPENDS ${prog} ${PROJECT_SOURCE_DIR}/cmake/man_commands.sh VERBATIM)
      list(APPEND loyd_man_pages ${PROJECT_BINARY_DIR}/man/${prog}.1)
    endforeach()
    add_custom_target(man_pages ALL DEPENDS ${loyd_man_pages})
    install(FILES ${loyd_man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT runtime)
  else()
    message(STATUS "help2man not found: no man pages (./setup.sh installs it)")
  endif()
  install(DIRECTORY data/8-fringe data/8-4-4 data/8-mtm-fringe data/15-5-5-5
    DESTINATION ${CMAKE_INSTALL_DATADIR}/loyd/pdb COMPONENT runtime)
  # Every preset's reference manifest, for `pdbgen verify --against` where tables are built.
  install(DIRECTORY data/reference/ DESTINATION ${CMAKE_INSTALL_DATADIR}/loyd/reference
    COMPONENT runtime)
endif()

# Packages (cpack in the build folder): a .deb and a .tar.gz of the programs, the library with
# its headers and packages, the man pages, completions and the small shipped tables, under /usr.
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_PACKAGE_NAME loyd)
set(CPACK_PACKAGE_VENDOR "loyd")
set(CPACK_PACKAGE_CONTACT "loyd maintainers <maintainers@loyd.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION games)
# Shared libraries the programs link (Debian 12 names); the static library's users also need
# the -dev packages of zstd and xxHash, which the .deb recommends.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "libc6, libstdc++6, libgcc-s1, libzstd1, libxxhash0, libboost-program-options1.74.0")
if(TARGET loyd_mpi)  # pdbgen links Open MPI's runtime (Debian 12: libopenmpi3; mpirun: openmpi-bin)
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libopenmpi3")
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS "openmpi-bin")
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libzstd-dev, libxxhash-dev, pkg-config")
if(TARGET loyd_python)  # the Python module (common/python): built for this CPython, uses NumPy
  string(APPEND CPACK_DEBIAN_PACKAGE_RECOMMENDS
    ", python3 (>= ${LOYD_PYTHON_VERSION}), python3-numpy")
endif()
set(CPACK_ARCHIVE_COMPONENT_INSTALL OFF)
include(CPack)
