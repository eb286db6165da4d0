#include "core/io/resident_source.h"

namespace apertura {

ResidentSource::ResidentSource(std::unique_ptr<VisibilitySource> inner) : info_(inner->info()) {
  VisibilityChunk chunk;
  while (inner->next(chunk)) {
    chunks_.push_back(chunk);  // a copy is allocated at its size, without spare capacity
  }
  warnings_ = inner->warnings();
}

bool ResidentSource::next(VisibilityChunk& chunk) {
  if (next_ >= chunks_.size())
    return false;
  chunk = chunks_[next_++];
  return true;
}

std::size_t ResidentSource::bytes() const {
  std::size_t b = 0;
  for (const auto& c : chunks_) {
    b += c.frequencies_hz.size() * 8 + c.uvw_m.size() * 8 + c.visibilities.size() * 8 +
         c.weights.size() * 4 + c.time_mjd_s.size() * 8 + c.antenna1.size() * 8 +
         c.source_rows.size() * 8;
  }
  return b;
}

}  // namespace apertura
