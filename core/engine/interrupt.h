#pragma once

namespace apertura::engine {

// Process-wide "the user asked to stop" flag set from signal handlers. A distributed run polls it
// through Communicator::any() at its checkpoints (cancelRequestedOnAnyRank), so a signal that
// reaches one rank stops every rank at the same iteration instead of leaving the others blocked
// in a collective.
//
// Handles SIGINT (Ctrl-C on a rank started directly), SIGTERM (what Open MPI's mpirun sends every
// rank when it receives SIGINT or SIGTERM itself), SIGHUP (a closed terminal or dropped ssh
// session) and SIGUSR1 (which mpirun forwards to every rank unchanged: `kill -USR1 <mpirun pid>`
// cancels a job without mpirun's kill timer). Signals in the first two seconds after the first
// are absorbed (Ctrl-C pressed twice must not cut the cleanup short); one after that restores the
// default action and re-raises it, so a hung run can still be stopped with a later Ctrl-C.
void installInterruptHandlers();
bool interruptRequested();
// The signal that set the flag (SIGINT, SIGTERM, SIGHUP, SIGUSR1), or 0: commands exit with 128 +
// it.
int interruptSignal();
// Throws OperationCancelled once a handled signal arrived: long loops without a token of their
// own (writing a simulated data set, reading for a dirty image) stop there, and the unwinding
// removes their temporary files.
void throwIfInterrupted();
// Sets the flag as a handled signal would (tests; a GUI "stop" relayed to a rank).
void requestInterrupt();
void clearInterrupt();

}  // namespace apertura::engine
