#pragma once

#include "core/data/chunk_sequence.h"
#include "core/io/visibility_source.h"

namespace apertura {

// Every pass rewinds the source and reads it to the end, one chunk at a time.
class StreamedChunks final : public ChunkSequence {
 public:
  explicit StreamedChunks(VisibilitySource& source) : source_(source) {}
  void forEach(const Visitor& visit) override;
  bool held() const override { return false; }

 private:
  VisibilitySource& source_;
  VisibilityChunk chunk_;  // reused across chunks and passes
};

}  // namespace apertura
