#pragma once

#include <memory>

#include "core/engine/communicator.h"

namespace apertura::engine {

// Communicator over MPI_COMM_WORLD (a duplicate, so these collectives never match messages of
// other code). Built only when MPI is found (target apertura_mpi, define APERTURA_HAVE_MPI); MPI
// must be initialised (MpiSession) before construction and finalised after destruction.
//
// sum(): MPI_Allreduce, whose order of additions is the MPI library's choice (it may depend on
// the number of ranks and the message size). With `deterministic` the sum is formed on rank 0 in
// rank order, ((x0 + x1) + x2) + ..., from an MPI_Gather, and sent back with MPI_Bcast: bitwise
// reproducible for a given number of ranks, at the cost of about twice the traffic through rank 0.
// Large arrays go in pieces so that MPI's int counts never overflow and rank 0's gather buffer
// stays bounded (kGatherBudgetBytes). MPI failures throw std::runtime_error naming the call.
class MpiCommunicator final : public Communicator {
 public:
  explicit MpiCommunicator(bool deterministic = false);
  ~MpiCommunicator() override;
  MpiCommunicator(const MpiCommunicator&) = delete;
  MpiCommunicator& operator=(const MpiCommunicator&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void sum(double* data, std::size_t n) override;
  void sum(float* data, std::size_t n) override;
  void broadcast(void* data, std::size_t bytes, int root) override;
  bool any(bool flag) override;
  void barrier() override;
  bool deterministic() const override { return deterministic_; }

  // Rank 0 holds at most this many bytes of gathered data per piece in deterministic mode.
  static constexpr std::size_t kGatherBudgetBytes = std::size_t{64} << 20;

 private:
  struct Impl;
  template <typename T>
  void sumImpl(T* data, std::size_t n);
  std::unique_ptr<Impl> impl_;
  int rank_ = 0, size_ = 1;
  bool deterministic_ = false;
};

}  // namespace apertura::engine
