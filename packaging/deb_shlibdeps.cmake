# CPack pre-build script (CPACK_PRE_BUILD_SCRIPTS), used when the package holds the CUDA module:
# computes the .deb's Depends with dpkg-shlibdeps over every dynamically linked ELF file in the
# staged install tree EXCEPT those matching CPACK_APERTURA_SHLIBDEPS_EXCLUDE (the CUDA module).
#
# Why not CPACK_DEBIAN_PACKAGE_SHLIBDEPS: it scans every ELF file, so the module's libcudart.so /
# libcufft.so would either become hard dependencies (where a Debian package provides them: every
# user would have to install CUDA for a backend that is optional and loaded with dlopen), or make
# dpkg-shlibdeps fail (where it cannot find them). The programs never link CUDA; the module is
# loaded at run time and, when its libraries are missing, the CPU backend is used with the reason
# in the run log. CUDA is named in Suggests instead (packaging/cpack.cmake).
if(NOT CPACK_GENERATOR STREQUAL "DEB")
  return()
endif()

find_program(_apertura_shlibdeps dpkg-shlibdeps)
find_program(_apertura_file file)
if(NOT _apertura_shlibdeps OR NOT _apertura_file)
  message(FATAL_ERROR "dpkg-shlibdeps and file are needed to build the .deb (packaging/install-deps.sh)")
endif()

file(GLOB_RECURSE _apertura_files LIST_DIRECTORIES false "${CPACK_TEMPORARY_DIRECTORY}/*")
set(_apertura_binaries)
set(_apertura_excluded)
foreach(_f IN LISTS _apertura_files)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env LC_ALL=C ${_apertura_file} -b "${_f}"
                  OUTPUT_VARIABLE _type RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0 OR NOT _type MATCHES "ELF.*dynamically linked")
    continue()
  endif()
  if(CPACK_APERTURA_SHLIBDEPS_EXCLUDE AND _f MATCHES "${CPACK_APERTURA_SHLIBDEPS_EXCLUDE}")
    list(APPEND _apertura_excluded "${_f}")
  else()
    list(APPEND _apertura_binaries "${_f}")
  endif()
endforeach()
if(NOT _apertura_binaries)
  message(FATAL_ERROR "no dynamically linked ELF files in ${CPACK_TEMPORARY_DIRECTORY}")
endif()

# dpkg-shlibdeps wants a debian/control file in its working directory (an empty one will do).
set(_work "${CPACK_TEMPORARY_DIRECTORY}-shlibdeps")
file(REMOVE_RECURSE "${_work}")
file(WRITE "${_work}/debian/control" "")
execute_process(COMMAND ${CMAKE_COMMAND} -E env LC_ALL=C ${_apertura_shlibdeps}
                        --ignore-missing-info -O ${_apertura_binaries}
                WORKING_DIRECTORY "${_work}"
                OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc)
file(REMOVE_RECURSE "${_work}")
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "dpkg-shlibdeps failed (${_rc}): ${_err}")
endif()
if(NOT _out MATCHES "shlibs:Depends=([^\n]*)")
  message(FATAL_ERROR "dpkg-shlibdeps printed no shlibs:Depends line: ${_out}")
endif()
set(_depends "${CMAKE_MATCH_1}")
if(CPACK_DEBIAN_PACKAGE_DEPENDS)
  set(_depends "${CPACK_DEBIAN_PACKAGE_DEPENDS}, ${_depends}")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${_depends}")
list(LENGTH _apertura_binaries _n)
message(STATUS "Apertura: Depends from ${_n} ELF file(s), not from ${_apertura_excluded}: ${_depends}")
