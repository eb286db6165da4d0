#pragma once

#include <exception>
#include <optional>
#include <string>

#include "core/engine/communicator.h"
#include "core/util/cancellation.h"

namespace apertura::engine {

// Collective decisions every rank of a distributed run must take together, built on Communicator
// alone (so they work, and are tested, with the single-process communicator too). Every rank must
// call them at the same point: they are the run's checkpoints.

// True on every rank when `token` is cancelled or an interrupt signal (interrupt.h) arrived on
// any rank. Call between iterations; then every rank stops at the same one.
bool cancelRequestedOnAnyRank(Communicator& comm, const CancellationToken* token);

struct RankError {
  int rank = 0;         // the lowest rank that failed
  std::string message;  // that rank's message
};

// After a step that may fail on some ranks: `local_error` is this rank's message (nullopt when it
// succeeded). Returns the error of the lowest failing rank, on every rank, or nullopt when every
// rank succeeded. Costs one any() when nothing failed.
std::optional<RankError> firstErrorOnAnyRank(Communicator& comm,
                                             const std::optional<std::string>& local_error);

// Runs `step` on this rank, catching what it throws, then agrees with the others: rethrows the
// local exception on a failing rank, and throws std::runtime_error("rank R: message") on the
// ranks that succeeded while another failed, so no rank is left waiting in a collective.
template <typename Step>
void runOnEveryRank(Communicator& comm, Step&& step);

// Implementation of the template above (one translation unit cannot hide it).
[[noreturn]] void throwRemoteError(const RankError& error);

template <typename Step>
void runOnEveryRank(Communicator& comm, Step&& step) {
  std::optional<std::string> local;
  std::exception_ptr mine;
  try {
    step();
  } catch (const std::exception& e) {
    local = e.what();
    mine = std::current_exception();
  } catch (...) {
    local = "unknown error";
    mine = std::current_exception();
  }
  const auto error = firstErrorOnAnyRank(comm, local);
  if (mine)
    std::rethrow_exception(mine);
  if (error)
    throwRemoteError(*error);
}

}  // namespace apertura::engine
