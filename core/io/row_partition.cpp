#include "core/io/row_partition.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace apertura {

std::uint64_t partitionBlockRows(std::uint64_t total_rows, std::size_t max_blocks) {
  const std::uint64_t blocks = std::max<std::uint64_t>(1, max_blocks);
  return std::max<std::uint64_t>(1, (total_rows + blocks - 1) / blocks);
}

std::size_t partitionBlocks(std::uint64_t total_rows, std::uint64_t block_rows) {
  return static_cast<std::size_t>((total_rows + block_rows - 1) /
                                  std::max<std::uint64_t>(1, block_rows));
}

void addUnflaggedHistogram(VisibilitySource& source, std::uint64_t block_rows,
                           std::vector<double>& hist) {
  if (block_rows == 0)
    throw std::invalid_argument("addUnflaggedHistogram: block_rows must be at least 1");
  VisibilityChunk chunk;
  source.rewind();
  while (source.next(chunk)) {
    const std::size_t nc = chunk.num_channels();
    for (std::size_t r = 0; r < chunk.num_rows(); ++r) {
      const std::uint64_t block = (chunk.first_row + r) / block_rows;
      if (block >= hist.size()) {
        throw std::out_of_range("row " + std::to_string(chunk.first_row + r) + " of " +
                                source.info().path + " is beyond the " +
                                std::to_string(hist.size()) + " blocks of the histogram");
      }
      const float* w = chunk.weights.data() + r * nc;
      hist[block] += static_cast<double>(std::count_if(w, w + nc, [](float x) { return x > 0; }));
    }
  }
}

std::vector<std::uint64_t> balancedRowBounds(const std::vector<double>& hist,
                                             std::uint64_t block_rows, std::uint64_t total_rows,
                                             int parts) {
  if (parts < 1)
    throw std::invalid_argument("balancedRowBounds: parts must be at least 1, got " +
                                std::to_string(parts));
  if (block_rows == 0 || hist.size() < partitionBlocks(total_rows, block_rows)) {
    throw std::invalid_argument("balancedRowBounds: a histogram of " + std::to_string(hist.size()) +
                                " blocks of " + std::to_string(block_rows) + " rows cannot cover " +
                                std::to_string(total_rows) + " rows");
  }
  const std::size_t nblocks = partitionBlocks(total_rows, block_rows);
  // Running count at each block edge: cum[k] = samples in blocks [0, k).
  std::vector<double> cum(nblocks + 1, 0.0);
  for (std::size_t k = 0; k < nblocks; ++k)
    cum[k + 1] = cum[k] + hist[k];
  const double total = cum[nblocks];
  std::vector<std::uint64_t> bounds(static_cast<std::size_t>(parts) + 1, 0);
  bounds.back() = total_rows;
  if (total <= 0) {
    for (int p = 1; p < parts; ++p)
      bounds[static_cast<std::size_t>(p)] = uniformRowRange(total_rows, p, parts).begin;
    return bounds;
  }
  std::size_t prev_edge = 0;
  for (int p = 1; p < parts; ++p) {
    const double target = total * p / parts;
    // First edge at or past the target, or the one before it when that is nearer.
    auto it = std::lower_bound(cum.begin() + static_cast<long>(prev_edge), cum.end(), target);
    std::size_t edge = static_cast<std::size_t>(it - cum.begin());
    if (edge > prev_edge && (edge > nblocks || target - cum[edge - 1] < cum[edge] - target))
      --edge;
    edge = std::min(edge, nblocks);
    prev_edge = edge;
    bounds[static_cast<std::size_t>(p)] = std::min<std::uint64_t>(edge * block_rows, total_rows);
  }
  return bounds;
}

RowRange uniformRowRange(std::uint64_t total_rows, int part, int parts) {
  if (parts < 1 || part < 0 || part >= parts) {
    throw std::invalid_argument("uniformRowRange: part " + std::to_string(part) + " of " +
                                std::to_string(parts));
  }
  const auto n = static_cast<std::uint64_t>(parts), p = static_cast<std::uint64_t>(part);
  const std::uint64_t base = total_rows / n, extra = total_rows % n;
  const std::uint64_t begin = p * base + std::min(p, extra);
  return {begin, begin + base + (p < extra ? 1 : 0)};
}

RowRange rowRangeOfPart(const std::vector<std::uint64_t>& bounds, int part) {
  if (part < 0 || static_cast<std::size_t>(part) + 1 >= bounds.size()) {
    throw std::invalid_argument("rowRangeOfPart: part " + std::to_string(part) + " of " +
                                std::to_string(bounds.empty() ? 0 : bounds.size() - 1));
  }
  return {bounds[static_cast<std::size_t>(part)], bounds[static_cast<std::size_t>(part) + 1]};
}

std::vector<std::uint64_t> balancedRowPartition(VisibilitySource& source, int parts) {
  // Sources written before row ranges existed may leave selection_rows at 0: then rows is it.
  const std::uint64_t total = std::max(source.info().selection_rows, source.info().rows);
  const std::uint64_t block_rows = partitionBlockRows(total);
  std::vector<double> hist(partitionBlocks(total, block_rows), 0.0);
  addUnflaggedHistogram(source, block_rows, hist);
  return balancedRowBounds(hist, block_rows, total, parts);
}

}  // namespace apertura
