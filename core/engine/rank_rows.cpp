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

}  // namespace apertura::engine
