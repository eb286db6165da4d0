# Distributed runs over MPI (issue #12). The communicator sources (core/engine/mpi_*.cpp) form
# the apertura_mpi library, built only when MPI's C bindings are found; everything else in core
# uses the MPI-free Communicator interface. APERTURA_HAVE_MPI (a CMake variable here and a
# compile definition of apertura_mpi's users) says whether it is on.
option(APERTURA_MPI "Build the MPI communicator (apertura_mpi) when MPI is found" ON)
set(APERTURA_HAVE_MPI OFF)
if(APERTURA_MPI)
  find_package(MPI COMPONENTS C)
  if(MPI_C_FOUND)
    set(APERTURA_HAVE_MPI ON)
  endif()
endif()
message(STATUS "Apertura MPI: ${APERTURA_HAVE_MPI}")
