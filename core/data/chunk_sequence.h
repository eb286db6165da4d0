#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "core/data/visibility_chunk.h"

namespace apertura {

// The visibility chunks of a run, traversed as often as a stage needs: either held in memory or
// read again from disk on every pass (StreamedChunks, core/io), so stages are written once for
// both. Passes yield the same chunks in the same order.
class ChunkSequence {
 public:
  using Visitor = std::function<void(const VisibilityChunk& chunk, std::size_t index)>;
  virtual ~ChunkSequence() = default;
  // Calls `visit` on every chunk in order; a chunk is valid only during its call.
  virtual void forEach(const Visitor& visit) = 0;
  // True when the chunks are in memory (a pass costs no I/O and chunks outlive the call).
  virtual bool held() const = 0;
};

class HeldChunks final : public ChunkSequence {
 public:
  explicit HeldChunks(const std::vector<VisibilityChunk>& chunks);
  explicit HeldChunks(std::vector<const VisibilityChunk*> chunks) : chunks_(std::move(chunks)) {}
  void forEach(const Visitor& visit) override;
  bool held() const override { return true; }

 private:
  std::vector<const VisibilityChunk*> chunks_;
};

}  // namespace apertura
