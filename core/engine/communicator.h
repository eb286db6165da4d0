#pragma once

#include <cstddef>

namespace apertura::engine {

// The collectives a distributed run needs, independent of any MPI header so that core, the CLI and
// the tests can code against it whether or not MPI was found. Every rank must call the same
// collectives in the same order with the same sizes (as with MPI itself). The single-process
// implementation below makes every call a no-op, so serial code paths need no special case.
class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // In-place element-wise sum over all ranks; every rank gets the result. With
  // deterministic() the summation order is fixed (rank 0, 1, 2, ...) whatever the timing.
  virtual void sum(double* data, std::size_t n) = 0;
  virtual void sum(float* data, std::size_t n) = 0;
  virtual void broadcast(void* data, std::size_t bytes, int root) = 0;
  // True on every rank when `flag` is true on any rank (errors, cancellation).
  virtual bool any(bool flag) = 0;
  virtual void barrier() = 0;
  // The deterministic reduction (--deterministic-reduction): besides the fixed order of sum(),
  // the imaging pipeline then splits the rows at chunk boundaries and adds per-chunk partial
  // images exactly (ExactSum), so that its results are bit for bit the same for any number of
  // ranks, a single process with this flag included. It costs one FFT per chunk per pass.
  virtual bool deterministic() const = 0;
};

// Rank 0 of 1, sums are no-ops. deterministic() is false: an ordinary single-process run.
Communicator& singleProcessCommunicator();
// Rank 0 of 1 with the deterministic reduction: the single-process run whose results a
// distributed run with MpiCommunicator(true) reproduces bit for bit.
Communicator& deterministicSingleProcessCommunicator();

}  // namespace apertura::engine
