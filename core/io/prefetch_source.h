#pragma once

#include <functional>
#include <memory>

#include "core/io/visibility_source.h"
#include "core/util/cancellation.h"

namespace apertura {

// Runs a synchronous source on its own I/O thread and keeps up to `depth` chunks ready in a
// bounded queue; the consumer pulls with next(). The inner source is created *on* the I/O thread
// by `open` and used only there (casacore is not thread-safe: one I/O thread per table).
// Exceptions on the I/O thread (opening or reading) are carried back as std::exception_ptr and
// rethrown by the constructor or by next(). Cancellation: the token is checked between chunks on
// both threads; next() then throws OperationCancelled. The destructor stops and joins the thread.
class PrefetchSource final : public VisibilitySource {
 public:
  using Opener = std::function<std::unique_ptr<VisibilitySource>()>;
  PrefetchSource(Opener open, int depth, const CancellationToken* cancel);
  ~PrefetchSource() override;
  PrefetchSource(const PrefetchSource&) = delete;
  PrefetchSource& operator=(const PrefetchSource&) = delete;

  const SourceInfo& info() const override;
  void rewind() override;
  bool next(VisibilityChunk& chunk) override;
  std::vector<std::string> warnings() const override;

 private:
  struct State;
  void run(const Opener& open);
  std::unique_ptr<State> state_;
};

}  // namespace apertura
