#include "core/engine/mpi_session.h"

#include <mpi.h>

#include <cstdlib>
#include <initializer_list>
#include <stdexcept>
#include <string>

#include "core/engine/interrupt.h"

namespace apertura::engine {

MpiSession::MpiSession(int& argc, char**& argv, const MpiSessionOptions& options) {
  const int wanted = options.serialized ? MPI_THREAD_SERIALIZED : MPI_THREAD_FUNNELED;
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) {
    if (MPI_Init_thread(&argc, &argv, wanted, &thread_level_) != MPI_SUCCESS)
      throw std::runtime_error("MPI_Init_thread failed");
    owns_ = true;
  } else {
    MPI_Query_thread(&thread_level_);
  }
  if (thread_level_ < wanted) {
    if (owns_)
      MPI_Finalize();
    owns_ = false;
    throw std::runtime_error(
        "the MPI library offers thread level " + std::to_string(thread_level_) +
        ", Apertura needs " +
        (options.serialized ? "MPI_THREAD_SERIALIZED" : "MPI_THREAD_FUNNELED"));
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  if (options.handle_interrupts)
    installInterruptHandlers();
}

MpiSession::~MpiSession() {
  int finalised = 0;
  MPI_Finalized(&finalised);
  if (owns_ && !finalised)
    MPI_Finalize();
}

void MpiSession::abortJob(int exit_code) {
  MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::_Exit(exit_code);  // MPI_Abort does not return; this satisfies [[noreturn]]
}

bool MpiSession::launchedByMpi() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"}) {
    if (std::getenv(var) != nullptr)
      return true;
  }
  return false;
}

}  // namespace apertura::engine
