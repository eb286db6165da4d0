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

// The data term over a run's chunks through the gridder's streaming calls: each evaluation is one
// pass over the chunks (degrid a chunk, form its weighted residuals, grid them) between one FFT
// each way, so only one chunk's model visibilities exist at a time. Held chunks are planned once;
// streamed chunks are read from disk and planned on every pass. Without `totals`, the constructor
// counts them in one pass. The operator and the chunks must outlive the term. In a distributed
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

// Counts the valid samples and sums the weights of every chunk (InputError for a negative weight).
DataTotals countDataTotals(ChunkSequence& chunks);

}  // namespace apertura::rml
