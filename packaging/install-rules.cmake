# What `cmake --install` (and so CPack) puts where. Included from the top CMakeLists.txt after every
# target exists. Layout under the prefix (/usr in the .deb):
#   bin/apertura, bin/apertura-cli
#   lib/apertura/plugins/        (installed by plugins/, if any)
#   lib/apertura/libapertura_cuda.so  (the CUDA backend, when built: core/imaging/cuda_module_loader
#                                      looks in <prefix>/lib/apertura beside <prefix>/bin)
#   share/applications/apertura.desktop
#   share/icons/hicolor/{scalable,NxN}/apps/apertura.{svg,png}
#   share/metainfo/org.apertura.Apertura.metainfo.xml
#   share/mime/packages/apertura.xml
#   share/man/man1/apertura.1.gz, apertura-cli.1.gz
#   share/doc/apertura/copyright, changelog.gz
# The apps read nothing else from disk at run time; core and gui are static libraries, so the
# installed binaries need no RPATH (CMake drops the build-tree one on install).
include(GNUInstallDirs)

set(_pkg ${PROJECT_SOURCE_DIR}/packaging)
set(_gen ${PROJECT_BINARY_DIR}/packaging)

install(TARGETS apertura-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET apertura)
  install(TARGETS apertura RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${_pkg}/apertura.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/apertura.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/icons/hicolor/
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor FILES_MATCHING PATTERN "*.png")
  configure_file(${_pkg}/org.apertura.Apertura.metainfo.xml
                 ${_gen}/org.apertura.Apertura.metainfo.xml @ONLY)
  install(FILES ${_gen}/org.apertura.Apertura.metainfo.xml
          DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
endif()
# The CUDA backend module. Literally lib/apertura (not CMAKE_INSTALL_LIBDIR, which is
# lib/x86_64-linux-gnu under /usr): the loader searches <program dir>/../lib/apertura. The install
# drops the build-tree RUNPATH; libcudart/libcufft come from the system library path.
if(TARGET apertura_cuda)
  install(TARGETS apertura_cuda LIBRARY DESTINATION lib/apertura)
endif()

# The project-file MIME type is useful without the GUI too (file managers name the files).
install(FILES ${_pkg}/apertura-mime.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages
        RENAME apertura.xml)

# Man pages and the changelog are installed gzip-compressed (-9n: smallest, no timestamp, so the
# package is reproducible), as Debian policy asks.
find_program(APERTURA_GZIP gzip REQUIRED)
set(APERTURA_MAINTAINER "Apertura developers <apertura@example.org>")
if(DEFINED ENV{SOURCE_DATE_EPOCH})
  string(TIMESTAMP APERTURA_CHANGELOG_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
else()
  set(APERTURA_CHANGELOG_DATE "Thu, 03 Dec 2026 00:00:00 +0000")
endif()
configure_file(${_pkg}/debian/changelog.in ${_gen}/changelog @ONLY)

set(_man_pages apertura-cli.1)
if(TARGET apertura)
  list(APPEND _man_pages apertura.1)
endif()
set(_gz_outputs)
foreach(_src IN ITEMS ${_man_pages} changelog)
  if(_src STREQUAL "changelog")
    set(_in ${_gen}/changelog)
  else()
    set(_in ${_pkg}/man/${_src})
  endif()
  add_custom_command(OUTPUT ${_gen}/${_src}.gz
                     COMMAND ${CMAKE_COMMAND} -E copy ${_in} ${_gen}/gz/${_src}
                     COMMAND ${APERTURA_GZIP} -9nf ${_gen}/gz/${_src}
                     COMMAND ${CMAKE_COMMAND} -E rename ${_gen}/gz/${_src}.gz ${_gen}/${_src}.gz
                     DEPENDS ${_in} VERBATIM)
  list(APPEND _gz_outputs ${_gen}/${_src}.gz)
endforeach()
add_custom_target(apertura_packaging_files ALL DEPENDS ${_gz_outputs})

foreach(_page IN LISTS _man_pages)
  install(FILES ${_gen}/${_page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endforeach()
install(FILES ${_pkg}/debian/copyright ${_gen}/changelog.gz
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/apertura)
