#include "core/engine/rank_rows.h"

#include <cstdint>
#include <vector>

#include "core/engine/rank_agreement.h"
#include "core/io/row_partition.h"
#include "core/io/visibility_source_factory.h"

namespace apertura::engine {

RowRange balancedRowRangeForRank(const std::string& path, const ReadOptions& options,
                                 Communicator& comm) {
  ReadOptions probe = options;
  probe.mode = ReadMode::kStreaming;
  probe.row_range = RowRange{0, 0};  // opens and plans the selection, reads no chunk
  std::uint64_t total = 0;
  runOnEveryRank(comm, [&] { total = openVisibilitySource(path, probe)->info().selection_rows; });
  if (comm.size() == 1)
    return {0, total};

  const std::uint64_t block_rows = partitionBlockRows(total);
  std::vector<double> hist(partitionBlocks(total, block_rows), 0.0);
  runOnEveryRank(comm, [&] {
    ReadOptions share = probe;
    share.row_range = uniformRowRange(total, comm.rank(), comm.size());
    auto source = openVisibilitySource(path, share);
    addUnflaggedHistogram(*source, block_rows, hist);
  });
  // Integer counts below 2^53 add exactly in double, so every rank gets the same histogram.
  comm.sum(hist.data(), hist.size());
  const auto bounds = balancedRowBounds(hist, block_rows, total, comm.size());
  return rowRangeOfPart(bounds, comm.rank());
}

RowRange chunkAlignedRowRangeForRank(const std::string& path, const ReadOptions& options,
                                     Communicator& comm) {
  const RowRange balanced = balancedRowRangeForRank(path, options, comm);
  if (comm.size() == 1)
    return balanced;
  // Each rank moves its own end; the last rank's end is the end of the selection already.
  std::vector<double> ends(std::size_t(comm.size()), 0.0);
  runOnEveryRank(comm, [&] {
    std::uint64_t end = balanced.end;
    if (comm.rank() + 1 < comm.size() && end > 0) {
      // The first chunk of a read from row end - 1 ends at the first boundary >= end: a
      // one-row piece when `end` is a boundary, else the rest of the chunk holding `end`.
      ReadOptions probe = options;
      probe.mode = ReadMode::kStreaming;
      probe.row_range = RowRange{end - 1, UINT64_MAX};
      auto source = openVisibilitySource(path, probe);
      VisibilityChunk first;
      if (source->next(first))
        end = first.first_row + first.num_rows();
    }
    ends[std::size_t(comm.rank())] = double(end);
  });
  // Row indices below 2^53 add exactly (each slot holds one rank's value, the others 0).
  comm.sum(ends.data(), ends.size());
  const std::size_t r = std::size_t(comm.rank());
  const auto end = std::uint64_t(ends[r]);
  const std::uint64_t begin = r == 0 ? 0 : std::min(end, std::uint64_t(ends[r - 1]));
  return {begin, end};
}

}  // namespace apertura::engine
