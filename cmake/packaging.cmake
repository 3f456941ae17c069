# Installation layout (`cmake --install`) and the Debian package (`cpack -G DEB`, see
# scripts/package.sh). The two programs install from app/CMakeLists.txt; everything else a
# desktop and a package need is installed here:
#   bin/mh-explorer, bin/mh-explorer-cli
#   share/applications/<id>.desktop            freedesktop desktop entry (this and the next two
#                                              lines, and mh-explorer.1.gz, only with MHX_BUILD_GUI)
#   share/metainfo/<id>.metainfo.xml           AppStream component (software centres)
#   share/icons/hicolor/scalable/apps/mh-explorer.svg
#   share/man/man1/mh-explorer.1.gz, mh-explorer-cli.1.gz
#   share/mh-explorer/data/                    the bundled digits (resources/data)
#   share/doc/mh-explorer/copyright, changelog.gz
#   include/minibatch-mh-explorer/mhx_model_plugin.h   the model plugin interface
#   <libdir>/cmake/MinibatchMHExplorer/         find_package(MinibatchMHExplorer) for plugins
include(GNUInstallDirs)

# AppStream component id, also the desktop file's name and the GUI's desktop file name:
# reverse DNS of the project's contact domain, mh-explorer.invalid (hyphens become
# underscores). Changing it renames resources/<id>.desktop and resources/<id>.metainfo.xml.
set(MHX_APP_ID "invalid.mh_explorer.mh_explorer")
set(MHX_CONTACT "Minibatch MH Explorer developers <dev@mh-explorer.invalid>")

# The programs find their data relative to their own location (core/install), so this path
# works for every prefix; the build-tree paths serve runs from build/ and are switched off
# for packages, so that no build-machine path is compiled into them.
set(MHX_INSTALL_DATADIR "${CMAKE_INSTALL_DATADIR}/mh-explorer/data" CACHE STRING
    "Where the bundled data sets are installed, relative to the install prefix")
option(MHX_BUILD_TREE_DATA "Also look for data in the source and build trees (off for packages)" ON)
set(MHX_INSTALL_DOCDIR "${CMAKE_INSTALL_DATADIR}/doc/mh-explorer")

# Debian policy wants man pages and changelogs gzipped, reproducibly (-n: no name, no time).
set(mhx_gzipped)
foreach(source resources/man/mh-explorer.1 resources/man/mh-explorer-cli.1 resources/packaging/changelog)
  get_filename_component(name ${source} NAME)
  set(output ${PROJECT_BINARY_DIR}/packaging/${name}.gz)
  add_custom_command(OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/packaging
    COMMAND sh -c "gzip -n -9 -c \"$1\" > \"$2\"" gzip ${PROJECT_SOURCE_DIR}/${source} ${output}
    DEPENDS ${PROJECT_SOURCE_DIR}/${source} VERBATIM)
  list(APPEND mhx_gzipped ${output})
endforeach()
add_custom_target(mhx_package_files ALL DEPENDS ${mhx_gzipped})

# The desktop integration and the GUI's man page describe a program that only a GUI build has.
if(MHX_BUILD_GUI)
  install(FILES resources/${MHX_APP_ID}.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES resources/${MHX_APP_ID}.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
  install(FILES resources/icons/mh-explorer.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
  install(FILES ${PROJECT_BINARY_DIR}/packaging/mh-explorer.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
install(FILES ${PROJECT_BINARY_DIR}/packaging/mh-explorer-cli.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(DIRECTORY resources/data/ DESTINATION ${MHX_INSTALL_DATADIR})
install(FILES resources/packaging/copyright ${PROJECT_BINARY_DIR}/packaging/changelog.gz
        DESTINATION ${MHX_INSTALL_DOCDIR})

# The model plugin interface for projects outside this tree (examples/cloglog-plugin): the C
# header and a CMake package, so that find_package(MinibatchMHExplorer) finds them.
include(CMakePackageConfigHelpers)
set(MHX_PLUGIN_INCLUDE_DIR "${CMAKE_INSTALL_INCLUDEDIR}/minibatch-mh-explorer")
set(MHX_CMAKE_PACKAGE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/MinibatchMHExplorer")
file(STRINGS ${PROJECT_SOURCE_DIR}/core/models/plugin/mhx_model_plugin.h mhx_version_line
     REGEX "^#define MHX_MODEL_PLUGIN_VERSION [0-9]+$")
string(REGEX REPLACE ".* ([0-9]+)$" "\\1" MHX_MODEL_PLUGIN_VERSION "${mhx_version_line}")
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/MinibatchMHExplorerConfig.cmake.in
  ${PROJECT_BINARY_DIR}/packaging/MinibatchMHExplorerConfig.cmake
  INSTALL_DESTINATION ${MHX_CMAKE_PACKAGE_DIR}
  PATH_VARS MHX_PLUGIN_INCLUDE_DIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/packaging/MinibatchMHExplorerConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES core/models/plugin/mhx_model_plugin.h DESTINATION ${MHX_PLUGIN_INCLUDE_DIR})
install(FILES ${PROJECT_BINARY_DIR}/packaging/MinibatchMHExplorerConfig.cmake
              ${PROJECT_BINARY_DIR}/packaging/MinibatchMHExplorerConfigVersion.cmake
        DESTINATION ${MHX_CMAKE_PACKAGE_DIR})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME mh-explorer)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "Minibatch MH Explorer developers")
set(CPACK_PACKAGE_CONTACT "${MHX_CONTACT}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "explore minibatch Metropolis-Hastings acceptance tests")
# Lines of at most 80 characters: CPack indents each for the control file but does not wrap.
string(JOIN "\n" CPACK_PACKAGE_DESCRIPTION
  "Minibatch MH Explorer runs Markov chain Monte Carlo samplers whose"
  "Metropolis-Hastings test reads only a small, growing minibatch of the data:"
  "the minibatch Barker test with its correction distribution, AustereMH and"
  "MHSubLhd, next to the full-data Metropolis and Barker tests. While a chain"
  "runs it plots the samples over the exact posterior, the minibatch sizes, the"
  "correction distribution, traces, and accuracy against data consumed."
  "."
  "mh-explorer is the Qt desktop application; mh-explorer-cli runs the same"
  "experiments headless and writes CmdStan-style sample files.")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Runtime libraries from the binaries themselves (dpkg-shlibdeps, package dpkg-dev). Qt's xcb
# and offscreen platform plugins and the SVG plugins come with libqt6gui6 and libqt6svg6,
# which those libraries pull in.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "dataset-fashion-mnist")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)

