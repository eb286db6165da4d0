#include "core/engine/mpi_communicator.h"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace apertura::engine {
namespace {

// Elements per MPI call: far below INT_MAX, so a count never overflows and no single message is
// larger than 1 GiB (some transports handle bigger ones badly).
constexpr std::size_t kMaxBytesPerCall = std::size_t{1} << 30;

void check(int code, const char* call) {
  if (code == MPI_SUCCESS)
    return;
  char text[MPI_MAX_ERROR_STRING] = {0};
  int len = 0;
  MPI_Error_string(code, text, &len);
  throw std::runtime_error(std::string(call) + " failed: " + std::string(text, std::size_t(len)));
}

template <typename T>
MPI_Datatype mpiType() {
  static_assert(std::is_same_v<T, double> || std::is_same_v<T, float>);
  return std::is_same_v<T, double> ? MPI_DOUBLE : MPI_FLOAT;
}

}  // namespace

struct MpiCommunicator::Impl {
  MPI_Comm comm = MPI_COMM_NULL;
  std::vector<unsigned char> gather;  // rank 0's buffer in deterministic mode, reused
};

MpiCommunicator::MpiCommunicator(bool deterministic)
    : impl_(std::make_unique<Impl>()), deterministic_(deterministic) {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised)
    throw std::logic_error("MpiCommunicator created before MPI_Init (create an MpiSession first)");
  check(MPI_Comm_dup(MPI_COMM_WORLD, &impl_->comm), "MPI_Comm_dup");
  // Errors come back as codes (thrown as exceptions) instead of aborting the job from inside MPI.
  MPI_Comm_set_errhandler(impl_->comm, MPI_ERRORS_RETURN);
  check(MPI_Comm_rank(impl_->comm, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(impl_->comm, &size_), "MPI_Comm_size");
}

MpiCommunicator::~MpiCommunicator() {
  int finalised = 0;
  MPI_Finalized(&finalised);
  if (!finalised && impl_->comm != MPI_COMM_NULL)
    MPI_Comm_free(&impl_->comm);
}

template <typename T>
void MpiCommunicator::sumImpl(T* data, std::size_t n) {
  if (size_ == 1 || n == 0)
    return;
  const MPI_Datatype type = mpiType<T>();
  if (!deterministic_) {
    const std::size_t step = kMaxBytesPerCall / sizeof(T);
    for (std::size_t off = 0; off < n; off += step) {
      const int count = static_cast<int>(std::min(step, n - off));
      check(MPI_Allreduce(MPI_IN_PLACE, data + off, count, type, MPI_SUM, impl_->comm),
            "MPI_Allreduce");
    }
    return;
  }
  // Pieces small enough that rank 0 can hold one piece from every rank.
  const std::size_t step = std::max<std::size_t>(
      1, std::min(kMaxBytesPerCall, kGatherBudgetBytes / std::size_t(size_)) / sizeof(T));
  const std::size_t ranks = static_cast<std::size_t>(size_);
  for (std::size_t off = 0; off < n; off += step) {
    const std::size_t m = std::min(step, n - off);
    const int count = static_cast<int>(m);
    T* piece = data + off;
    T* all = nullptr;
    if (rank_ == 0) {
      impl_->gather.resize(m * ranks * sizeof(T));
      all = reinterpret_cast<T*>(impl_->gather.data());
    }
    check(MPI_Gather(piece, count, type, all, count, type, 0, impl_->comm), "MPI_Gather");
    if (rank_ == 0) {
      // Left to right over ranks, the same order however the messages arrived.
      for (std::size_t i = 0; i < m; ++i) {
        T s = all[i];
        for (std::size_t r = 1; r < ranks; ++r)
          s += all[r * m + i];
        piece[i] = s;
      }
    }
    check(MPI_Bcast(piece, count, type, 0, impl_->comm), "MPI_Bcast");
  }
}

void MpiCommunicator::sum(double* data, std::size_t n) {
  sumImpl(data, n);
}
void MpiCommunicator::sum(float* data, std::size_t n) {
  sumImpl(data, n);
}

void MpiCommunicator::broadcast(void* data, std::size_t bytes, int root) {
  if (root < 0 || root >= size_) {
    throw std::invalid_argument("broadcast from rank " + std::to_string(root) + " of " +
                                std::to_string(size_));
  }
  auto* p = static_cast<unsigned char*>(data);
  for (std::size_t off = 0; off < bytes; off += kMaxBytesPerCall) {
    const int count = static_cast<int>(std::min(kMaxBytesPerCall, bytes - off));
    check(MPI_Bcast(p + off, count, MPI_BYTE, root, impl_->comm), "MPI_Bcast");
  }
}

bool MpiCommunicator::any(bool flag) {
  int local = flag ? 1 : 0, global = 0;
  check(MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_LOR, impl_->comm), "MPI_Allreduce");
  return global != 0;
}

void MpiCommunicator::barrier() {
  check(MPI_Barrier(impl_->comm), "MPI_Barrier");
}

}  // namespace apertura::engine
