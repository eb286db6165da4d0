#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/io/row_range.h"
#include "core/io/visibility_source.h"

namespace apertura {

// Splitting the rows of a selection into parts (one per process) with about the same number of
// unflagged samples each, since unflagged samples are what gridding and degridding cost. A
// counting pass fills a histogram of unflagged samples per block of rows; the boundaries fall on
// block edges where the running count crosses k/parts of the total. Blocks are single rows up to
// kMaxPartitionBlocks rows, so the imbalance is at most about one block (plus the largest row).
constexpr std::size_t kMaxPartitionBlocks = std::size_t{1} << 20;

// Rows per histogram block for a selection of `total_rows` rows: the smallest block size that
// keeps the histogram within max_blocks entries (at least 1).
std::uint64_t partitionBlockRows(std::uint64_t total_rows,
                                 std::size_t max_blocks = kMaxPartitionBlocks);

// Blocks of a histogram of `total_rows` rows at `block_rows` rows per block.
std::size_t partitionBlocks(std::uint64_t total_rows, std::uint64_t block_rows);

// One full pass over `source` (it rewinds first): adds the number of unflagged samples (weight
// > 0) of each row to hist[first_row-based index / block_rows]. A source limited to a row range
// only touches its own blocks, so histograms of disjoint ranges add up to the whole one (which is
// how ranks split the counting pass). Throws std::out_of_range for a row beyond the histogram.
void addUnflaggedHistogram(VisibilitySource& source, std::uint64_t block_rows,
                           std::vector<double>& hist);

// Boundaries b[0] = 0 <= b[1] <= ... <= b[parts] = total_rows; part p is [b[p], b[p+1]). b[p] is
// the block edge whose running count is nearest p * total / parts. With no unflagged sample at
// all the rows are split evenly. Throws std::invalid_argument when parts < 1 or the histogram is
// too short for total_rows.
std::vector<std::uint64_t> balancedRowBounds(const std::vector<double>& hist,
                                             std::uint64_t block_rows, std::uint64_t total_rows,
                                             int parts);

// Part p of `parts` equal row counts (the first total % parts parts get one row more).
RowRange uniformRowRange(std::uint64_t total_rows, int part, int parts);

// [bounds[part], bounds[part + 1]).
RowRange rowRangeOfPart(const std::vector<std::uint64_t>& bounds, int part);

// Serial convenience: the balanced boundaries of `source`'s rows (one counting pass). `source`
// must not be limited to a row range.
std::vector<std::uint64_t> balancedRowPartition(VisibilitySource& source, int parts);

}  // namespace apertura
