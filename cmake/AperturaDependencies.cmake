# Third-party libraries. Several Debian packages ship no CMake config (TOOLCHAIN.md): those are
# found through pkg-config or find_library and wrapped in imported targets here, once.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(TBB REQUIRED)

pkg_check_modules(FFTW3 REQUIRED IMPORTED_TARGET fftw3 fftw3f)
find_library(FFTW3_THREADS_LIB fftw3_threads REQUIRED)
find_library(FFTW3F_THREADS_LIB fftw3f_threads REQUIRED)
add_library(apertura_fftw INTERFACE)
target_link_libraries(apertura_fftw INTERFACE PkgConfig::FFTW3 ${FFTW3_THREADS_LIB}
                                              ${FFTW3F_THREADS_LIB})

pkg_check_modules(CFITSIO REQUIRED IMPORTED_TARGET cfitsio)
pkg_check_modules(WCSLIB REQUIRED IMPORTED_TARGET wcslib)

# casacore's .pc over-links; name the libraries we use.
find_path(CASACORE_INCLUDE_DIR casacore/tables/Tables/Table.h REQUIRED)
set(_casa_libs)
foreach(_lib casa_ms casa_measures casa_tables casa_scimath casa_scimath_f casa_casa)
  find_library(CASACORE_${_lib}_LIB ${_lib} REQUIRED)
  list(APPEND _casa_libs ${CASACORE_${_lib}_LIB})
endforeach()
add_library(apertura_casacore INTERFACE)
target_include_directories(apertura_casacore SYSTEM INTERFACE ${CASACORE_INCLUDE_DIR})
target_link_libraries(apertura_casacore INTERFACE ${_casa_libs})

if(APERTURA_BUILD_GUI)
  find_package(Qt6 6.2 REQUIRED COMPONENTS Core Gui Widgets OpenGLWidgets Charts Concurrent Test)
  # Debian's VTK Qt module targets Qt 5: never ask for GUISupportQt/RenderingQt/ViewsQt.
  find_package(VTK 9.1 REQUIRED COMPONENTS
    CommonCore CommonDataModel CommonColor CommonExecutionModel FiltersCore FiltersSources
    FiltersGeometry ImagingCore RenderingCore RenderingOpenGL2 RenderingFreeType
    RenderingAnnotation RenderingVolume RenderingVolumeOpenGL2 InteractionStyle)
elseif(APERTURA_BUILD_TESTS)
  find_package(Qt6 6.2 REQUIRED COMPONENTS Core Test)
endif()
