#pragma once

#include <cstdint>

namespace apertura {

// A half-open range [begin, end) of indices into the sequence of rows a selection yields (the
// order a full read hands them out, autocorrelations and deselected rows excluded): the index
// VisibilityChunk::first_row counts in. Used to split one data set between processes.
struct RowRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;

  std::uint64_t size() const { return end > begin ? end - begin : 0; }
  bool empty() const { return size() == 0; }
  bool operator==(const RowRange& o) const { return begin == o.begin && end == o.end; }
  bool operator!=(const RowRange& o) const { return !(*this == o); }
};

}  // namespace apertura
