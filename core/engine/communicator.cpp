#include "core/engine/communicator.h"

#include <stdexcept>
#include <string>

namespace apertura::engine {
namespace {

// Rank 0 of 1: a sum over one rank is the data itself, a broadcast from rank 0 leaves it as is.
class SingleProcessCommunicator final : public Communicator {
 public:
  explicit SingleProcessCommunicator(bool deterministic) : deterministic_(deterministic) {}
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void sum(double*, std::size_t) override {}
  void sum(float*, std::size_t) override {}
  void broadcast(void*, std::size_t, int root) override {
    if (root != 0) {
      throw std::invalid_argument("broadcast from rank " + std::to_string(root) +
                                  " in a single-process run (only rank 0 exists)");
    }
  }
  bool any(bool flag) override { return flag; }
  void barrier() override {}
  // One rank: the order of a sum over ranks cannot vary; the flag asks for the pipeline's
  // per-chunk exact sums (communicator.h), which an ordinary run does not pay for.
  bool deterministic() const override { return deterministic_; }

 private:
  bool deterministic_ = false;
};

}  // namespace

Communicator& singleProcessCommunicator() {
  static SingleProcessCommunicator instance(false);  // immutable, so one shared instance is safe
  return instance;
}

Communicator& deterministicSingleProcessCommunicator() {
  static SingleProcessCommunicator instance(true);
  return instance;
}

}  // namespace apertura::engine
