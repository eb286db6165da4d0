#include "core/io/read_options.h"

#include <algorithm>

namespace apertura {

std::size_t bytesPerChunkRow(std::size_t channels, std::size_t correlations) {
  const std::size_t raw = channels * correlations * (8 + 4 + 1);
  const std::size_t product = channels * (8 + 4);
  const std::size_t per_row = 3 * 8 + 8 + 2 * 4;  // uvw, time, antennas
  return raw + product + per_row;
}

std::size_t autoChunkRows(const ReadOptions& options, std::size_t channels,
                          std::size_t correlations) {
  if (options.chunk_rows && *options.chunk_rows > 0)
    return *options.chunk_rows;
  const std::size_t alive = static_cast<std::size_t>(std::max(1, options.prefetch_depth)) + 2;
  const std::size_t per_row = std::max<std::size_t>(1, bytesPerChunkRow(channels, correlations));
  const std::size_t rows = options.memory_budget_bytes / (alive * per_row);
  return std::clamp<std::size_t>(rows, 1, std::size_t{1} << 20);
}

template <>
const std::vector<ChoiceName<ReadMode>>& choiceTable<ReadMode>() {
  static const std::vector<ChoiceName<ReadMode>> t = {{ReadMode::kAuto, "auto"},
                                                      {ReadMode::kResident, "resident"},
                                                      {ReadMode::kStreaming, "streaming"}};
  return t;
}

}  // namespace apertura
