#pragma once

namespace apertura::engine {

struct MpiSessionOptions {
  // false: MPI_THREAD_FUNNELED, only the thread that creates the session calls MPI. true:
  // MPI_THREAD_SERIALIZED, any thread but one at a time: needed when the collectives run on
  // another thread, e.g. the pipeline on engine::Engine's worker thread while main() waits.
  bool serialized = false;
  // Install the interrupt handlers (interrupt.h), after MPI_Init so MPI does not replace them.
  bool handle_interrupts = true;
};

// MPI's lifetime for one process (apertura_mpi only). The constructor calls MPI_Init_thread with
// the thread level of the options and throws std::runtime_error when the library offers less.
// The destructor calls MPI_Finalize. A session created when MPI is already initialised (by a host
// program) leaves init and finalise to that program.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv, const MpiSessionOptions& options = {});
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  // The thread level MPI provides (MPI_THREAD_* value), at least the one asked for.
  int threadLevel() const { return thread_level_; }

  // Ends every rank of the job at once (MPI_Abort), for a failure that cannot be agreed on
  // collectively (a rank that stopped answering). Prefer runOnEveryRank + a normal exit.
  [[noreturn]] static void abortJob(int exit_code);

  // True when this process was started by an MPI launcher (mpirun/mpiexec/srun), judged from the
  // environment it sets, before MPI_Init: lets a program decide whether to start MPI at all.
  static bool launchedByMpi();

 private:
  bool owns_ = false;
  int rank_ = 0, size_ = 1, thread_level_ = 0;
};

}  // namespace apertura::engine
