#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/io/selection.h"

namespace apertura {

// Model (or residual) values of the imaged product for some rows of a Measurement Set, laid out
// like a VisibilityChunk: sample (r, c) at values[r * num_channels() + c]. Build one per chunk
// from chunk.source_rows, the selection's channel_start and chunk.frequencies_hz.
struct ModelBlock {
  std::vector<std::uint64_t> source_rows;  // main-table row numbers (VisibilityChunk::source_rows)
  std::size_t channel_start = 0;           // spectral-window channel of values' column 0
  // Optional check: when not empty, must equal the row's channel frequencies from channel_start
  // on (guards against a model computed for another selection). Its size is the channel count.
  std::vector<double> frequencies_hz;
  std::vector<std::complex<float>> values;

  std::size_t num_rows() const { return source_rows.size(); }
  std::size_t num_channels() const {
    return source_rows.empty() ? 0 : values.size() / source_rows.size();
  }
};

struct ModelWriteRequest {
  std::string input_path;   // the Measurement Set the model belongs to
  std::string output_path;  // a new copy of the input; empty: write into the input itself
  bool in_place = false;    // must be true for an empty output_path
  std::string column = "MODEL_DATA";
  // Stokes I is written as an unpolarised source: every parallel hand (XX YY, RR LL) = I and the
  // cross hands = 0. A single correlation (XX, RL, ...) writes only that correlation.
  // Q, U and V are refused (they do not determine the correlations).
  Product product = Product::I;
  std::vector<ModelBlock> blocks;
};

// Writes the model into `column` (created with DATA's shape, complex, StandardStMan, when
// absent). Rows no block covers are zero in a newly created column and untouched in an existing
// one; so are the channels outside a block and, for single-correlation products, the other
// correlations. With an output_path the input directory is copied to a temporary sibling of the
// output, written there, then renamed to output_path, so the input is never modified and no
// half-written output appears; an existing output is refused. Into the input only when in_place
// is true, and never into DATA, CORRECTED_DATA or FLOAT_DATA. Throws InputError naming the path
// and column.
void writeModelColumn(const ModelWriteRequest& request);

}  // namespace apertura
