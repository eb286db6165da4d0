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
  virtual bool deterministic() const = 0;
};

Communicator& singleProcessCommunicator();  // rank 0 of 1, sums are no-ops

}  // namespace apertura::engine
