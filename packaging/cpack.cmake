# CPack: a Debian package (apertura_<version>_<arch>.deb) and a .tar.gz of the same install tree.
# `cpack` in the build directory (or `cmake --build <dir> --target package`) makes both; the
# packaging test builds the .deb, unpacks it and runs the installed programs. Included from the top
# CMakeLists.txt after packaging/install-rules.cmake.
set(CPACK_PACKAGE_NAME apertura)
set(CPACK_PACKAGE_VENDOR "The Apertura developers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${APERTURA_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "interactive RML imaging for radio interferometry")
# Debian wants the long description's lines under 80 characters.
set(CPACK_PACKAGE_DESCRIPTION
    "Apertura images radio interferometric visibilities by regularized maximum
likelihood (RML). It reads Measurement Sets and UVFITS files, weights and
grids the visibilities, and minimises chi-squared plus regularizers (L1,
maximum entropy, total variation and more) with L-BFGS, conjugate gradient,
FISTA or SDMM. The desktop application shows the dirty image, model,
residuals and convergence live; apertura-cli does the same without a
display. Outputs are FITS images.")
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_SOURCE_GENERATOR "")
# Release binaries are stripped (Debian policy; lintian errors on unstripped ones).
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

# Debian: dependencies are computed from the binaries' shared libraries (dpkg-shlibdeps, from
# dpkg-dev). Data packages cannot be found that way: casacore-data holds the measures tables that
# casacore's frame conversions read.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${APERTURA_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "casacore-data")
# The CUDA module (lib/apertura/libapertura_cuda.so) is loaded with dlopen and is optional: its
# CUDA runtime and cuFFT must not become dependencies. dpkg-shlibdeps then runs from a pre-build
# script over every binary but the module (packaging/deb_shlibdeps.cmake says why), and CUDA is
# only suggested: NVIDIA's runtime packages for the toolkit version the module was built with.
if(TARGET apertura_cuda)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
  set(CPACK_PRE_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/packaging/deb_shlibdeps.cmake)
  set(CPACK_APERTURA_SHLIBDEPS_EXCLUDE "/lib/apertura/libapertura_cuda[.]so$")
  set(_cuda_pkg "${CUDAToolkit_VERSION_MAJOR}-${CUDAToolkit_VERSION_MINOR}")
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS "cuda-cudart-${_cuda_pkg}, libcufft-${_cuda_pkg}")
endif()
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# apertura_<version>_<arch>.deb, installing under /usr (the DEB generator's default prefix); the
# tarball holds the same tree (bin/, lib/, share/) under its top folder.
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)

include(CPack)
