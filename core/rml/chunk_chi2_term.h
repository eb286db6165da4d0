#pragma once

#include <memory>
#include <optional>

#include "core/data/chunk_sequence.h"
#include "core/data/process_sum.h"
#include "core/imaging/imaging_operator.h"
#include "core/rml/data_term.h"

namespace apertura::rml {

// What the data term needs to know about the whole data set before its first evaluation.
struct DataTotals {
  std::size_t valid_samples = 0;  // samples with w > 0
  double sum_weights = 0.0;
};

// How a ChunkChi2Term sums (all optional; the defaults are those of the plain factories).
struct ChunkChi2Options {
  std::optional<DataTotals> totals;  // none: counted in one pass at construction
  // Distributed run: each process holds some of the chunks; the value and the gradient are
  // summed over processes (the totals must then be those of all processes).
  SumOverProcesses sum;
  // Float operator only (ignored with a double one): grid the weighted residuals with this
  // double-precision operator (same geometry and operator settings) instead of the float one.
  // A float grid rounds each chunk's contribution as it is added, so the gradient depends on
  // how the rows are cut into chunks and split between processes at the 1e-7 level, which 20
  // L-BFGS iterations amplify to 1e-5 in the model; a double grid removes that dependence. The
  // model visibilities stay float (degridding reads one grid, the same for any chunking).
  imaging::ImagingOperator<double>* double_adjoint = nullptr;
  // Deterministic reduction: every chunk's partial gradient image is formed on its own (one
  // gridding FFT per chunk and evaluation instead of one per evaluation) and the partial images
  // and chi2 values are added exactly (ExactSum), so value and gradient depend only on the
  // chunks: bit for bit the same for any number of processes and any order of the sums.
  bool exact_chunk_sums = false;
};

// The data term over a run's chunks through the gridder's streaming calls: each evaluation is one
// pass over the chunks (degrid a chunk, form its weighted residuals, grid them) between one FFT
// each way, so only one chunk's model visibilities exist at a time. Held chunks are planned once;
// streamed chunks are read from disk and planned on every pass. Without `totals`, the constructor
// counts them in one pass. The operators and the chunks must outlive the term. In a distributed
// run each process holds some of the chunks: `sum` adds the value and the gradient over processes
// (the totals must then be those of all processes).
std::shared_ptr<DataTerm> makeChunkChi2Term(imaging::ImagingOperator<float>& op,
                                            ChunkSequence& chunks,
                                            std::optional<DataTotals> totals = std::nullopt,
                                            SumOverProcesses sum = nullptr);
std::shared_ptr<DataTerm> makeChunkChi2Term(imaging::ImagingOperator<double>& op,
                                            ChunkSequence& chunks,
                                            std::optional<DataTotals> totals = std::nullopt,
                                            SumOverProcesses sum = nullptr);
std::shared_ptr<DataTerm> makeChunkChi2Term(imaging::ImagingOperator<float>& op,
                                            ChunkSequence& chunks, const ChunkChi2Options& options);
std::shared_ptr<DataTerm> makeChunkChi2Term(imaging::ImagingOperator<double>& op,
                                            ChunkSequence& chunks, const ChunkChi2Options& options);

// Counts the valid samples and sums the weights of every chunk (InputError for a negative weight).
DataTotals countDataTotals(ChunkSequence& chunks);

}  // namespace apertura::rml
