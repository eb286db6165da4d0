#include "core/io/streamed_chunks.h"

namespace apertura {

void StreamedChunks::forEach(const Visitor& visit) {
  source_.rewind();
  for (std::size_t i = 0; source_.next(chunk_); ++i)
    visit(chunk_, i);
}

}  // namespace apertura
