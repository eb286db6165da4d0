#include "core/data/chunk_sequence.h"

namespace apertura {

HeldChunks::HeldChunks(const std::vector<VisibilityChunk>& chunks) {
  chunks_.reserve(chunks.size());
  for (const VisibilityChunk& c : chunks)
    chunks_.push_back(&c);
}

void HeldChunks::forEach(const Visitor& visit) {
  for (std::size_t i = 0; i < chunks_.size(); ++i)
    visit(*chunks_[i], i);
}

}  // namespace apertura
