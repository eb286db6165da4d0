#pragma once

#include <memory>
#include <optional>

#include "core/data/chunk_sequence.h"
#include "core/data/process_sum.h"
#include "core/imaging/imaging_operator.h"
#include "core/rml/data_term.h"

namespace apertura::rml {

// How a ChunkChi2Term sums (all optional; the defaults are those of the plain factories).
struct ChunkChi2Options {
  std::optional<DataTotals> totals;  // none: counted in one pass at construction
  // Distributed run: each process holds some of the chunks; the value and the gradient are
  // summed over processes (the totals must then be those of all processes).
  SumOverProcesses sum;
  // (A float operator with OperatorSettings::double_accumulation sums the chunks' gridded
  // residuals in double, so the gradient does not depend on how rows are cut into chunks or
  // split between processes beyond the rounding inside each chunk.)
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
