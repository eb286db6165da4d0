#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/data/dataset_summary.h"
#include "core/data/visibility_chunk.h"
#include "core/io/selection.h"

namespace apertura {

// What a source yields, known once it is open (before the first chunk).
struct SourceInfo {
  std::string path;
  std::string format;  // "MeasurementSet" or "UVFITS"
  std::string telescope;
  std::string data_column;    // MS column read ("DATA", "CORRECTED_DATA", ...); "" for UVFITS
  std::string weight_column;  // where weights come from ("WEIGHT_SPECTRUM", "SIGMA", ...)
  Product product = Product::I;
  std::vector<FieldInfo> fields;                     // every field of the file, by id
  std::vector<SpectralWindowInfo> spectral_windows;  // every window (IF) of the file, by id
  std::uint64_t rows = 0;     // rows (cross-correlations) the selection yields per pass
  std::uint64_t samples = 0;  // rows x selected channels per pass
  // Rows of the whole selection, before ReadOptions::row_range (equal to `rows` without one).
  std::uint64_t selection_rows = 0;
  std::size_t chunk_rows = 0;    // most rows per chunk
  std::size_t max_channels = 0;  // widest chunk
};

// A sequence of visibility chunks that can be read again from the start. Passes are identical.
// Not thread-safe: one consumer thread calls rewind()/next().
class VisibilitySource {
 public:
  virtual ~VisibilitySource() = default;
  virtual const SourceInfo& info() const = 0;
  // Back to the first chunk.
  virtual void rewind() = 0;
  // Fills `chunk` (reusing its capacity) and returns true, or returns false at the end of a pass.
  // Throws InputError for bad data and OperationCancelled when the read was cancelled.
  virtual bool next(VisibilityChunk& chunk) = 0;
  // Problems the caller may show (NaN counts, skipped windows...). Complete after one full pass.
  virtual std::vector<std::string> warnings() const = 0;
  // True when every chunk is held in memory (no disk access per pass).
  virtual bool resident() const { return false; }
};

}  // namespace apertura
