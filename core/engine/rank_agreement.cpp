#include "core/engine/rank_agreement.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/engine/interrupt.h"

namespace apertura::engine {

bool cancelRequestedOnAnyRank(Communicator& comm, const CancellationToken* token) {
  const bool local = interruptRequested() || (token != nullptr && token->cancelled());
  return comm.any(local);
}

std::optional<RankError> firstErrorOnAnyRank(Communicator& comm,
                                             const std::optional<std::string>& local_error) {
  if (!comm.any(local_error.has_value()))
    return std::nullopt;
  // Which ranks failed: a 0/1 vector summed over ranks (exact in double), then the lowest one
  // broadcasts its message, length first.
  std::vector<double> failed(static_cast<std::size_t>(comm.size()), 0.0);
  failed[static_cast<std::size_t>(comm.rank())] = local_error ? 1.0 : 0.0;
  comm.sum(failed.data(), failed.size());
  const auto first = std::find_if(failed.begin(), failed.end(), [](double x) { return x > 0; });
  if (first == failed.end())
    throw std::logic_error("firstErrorOnAnyRank: ranks disagree on whether one failed");
  RankError error;
  error.rank = static_cast<int>(first - failed.begin());
  std::uint64_t length = error.rank == comm.rank() ? local_error->size() : 0;
  comm.broadcast(&length, sizeof length, error.rank);
  error.message = error.rank == comm.rank() ? *local_error : std::string(length, '\0');
  if (length > 0)
    comm.broadcast(error.message.data(), length, error.rank);
  return error;
}

void throwRemoteError(const RankError& error) {
  throw std::runtime_error("rank " + std::to_string(error.rank) + ": " + error.message);
}

}  // namespace apertura::engine
