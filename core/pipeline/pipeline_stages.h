#pragma once

// Internal to core/pipeline: the stages of makeImagingPipeline and the state they share.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/data/chunk_sequence.h"
#include "core/data/process_sum.h"
#include "core/data/visibility_chunk.h"
#include "core/engine/communicator.h"
#include "core/engine/memory_tracker.h"
#include "core/engine/run_context.h"
#include "core/imaging/dirty_mapper.h"
#include "core/imaging/imaging_operator.h"
#include "core/io/visibility_source.h"
#include "core/pipeline/imaging_products.h"
#include "core/rml/chunk_chi2_term.h"

namespace apertura::pipeline {

// Where a chunk's samples came from, kept in streaming mode for writing model columns back.
struct ChunkRows {
  std::vector<std::uint64_t> source_rows;
  std::vector<double> frequencies_hz;
};

// The run's visibilities: every chunk held in `chunks` (resident), or `source` read again on
// every pass (streaming). Stages go through `sequence`, which is either.
struct RunData {
  bool streaming = false;
  // The memory estimate counted the optimizer's chi2 through the PSF (imaging.operator auto
  // takes it only then; MemoryEstimate::psf_mode).
  bool psf_mode_in_budget = false;
  std::vector<VisibilityChunk> chunks;       // resident
  std::unique_ptr<VisibilitySource> source;  // streaming
  std::vector<ChunkRows> streamed_rows;      // streaming, only when columns are written back
  std::unique_ptr<ChunkSequence> sequence;
  rml::DataTotals totals;  // of the measured weights
  // The visibilities' scatter over the variance their weights claim (NoiseScatter), every rank's.
  double weight_scale = 1.0;
  std::size_t scatter_pairs = 0;
  double duplicate_fraction = 0.0;  // rows repeating another of their chunk
  double max_uv_wavelengths = 0.0;
  // The lowest and highest imaged channel frequency (centres) over every rank.
  double min_frequency_hz = 0.0, max_frequency_hz = 0.0;
  // |CHAN_WIDTH| of each spectral window of the file, by id (0: not given), for the bandwidth of
  // the image or of each cube plane.
  std::vector<double> channel_widths_hz;
  double channelWidth(int spectral_window) const {
    return spectral_window >= 0 && std::size_t(spectral_window) < channel_widths_hz.size()
               ? channel_widths_hz[std::size_t(spectral_window)]
               : 0.0;
  }
  // Distributed w-stacking: the w range (wavelengths) of every rank's samples (min > max: none).
  double w_cover_min = 1.0, w_cover_max = -1.0;
  engine::TrackedBytes tracked;  // the chunks' memory, for telemetry
  engine::Communicator* comm = &engine::singleProcessCommunicator();

  bool distributed() const { return comm->size() > 1; }
  // Sums over the ranks of a distributed run (null in a single process).
  SumOverProcesses sumOverRanks() const;
};

// Image geometry of the run: the project's size and cell, or the "auto" cell
// suggestedCellRad(longest uv distance) (core/data/uv_extent.h), as the data set summary.
imaging::ImageGeometry runGeometry(const project::ProjectSettings& s, const RunData& data);
imaging::OperatorSettings operatorSettings(const project::ImagingSettings& im);
// operatorSettings() with what the run's data add (the ranks' common w range).
imaging::OperatorSettings operatorSettings(const project::ImagingSettings& im, const RunData& data);
// The dirty mapper's settings for the run: geometry, operator, weighting, backend, rank sums.
imaging::DirtyImageSettings dirtyImageSettings(const project::ProjectSettings& s,
                                               const RunData& data);

void readStage(engine::RunContext& ctx, RunData& data, ImagingProducts& out);
void dirtyStage(engine::RunContext& ctx, const RunData& data, ImagingProducts& out);
void optimizeAndRestoreStages(engine::RunContext& ctx, RunData& data, ImagingProducts& out);
// Model/residual visibilities into a Measurement Set column (output.write_*_column): on every
// rank of a distributed run, in turns; a no-op unless the project asks for it.
void writeBackStage(engine::RunContext& ctx, const RunData& data, ImagingProducts& out);
bool writesVisibilitiesBack(const project::ProjectSettings& s);
// FITS images and the metrics CSV (rank 0 of a distributed run).
void exportStage(engine::RunContext& ctx, ImagingProducts& out);

// Publishes an image of the run (geometry, phase centre and beam from `p`) to the observer.
void publishImage(engine::RunContext& ctx, const std::string& name, int iteration,
                  const ImagingProducts& p, const float* pixels, const std::string& unit);
void publishImage(engine::RunContext& ctx, const std::string& name, int iteration,
                  const ImagingProducts& p, const double* pixels, const std::string& unit);
// Publishes the optimizer's parameters as the model image: a linear-spectrum model's two planes
// as the sky at the image's frequency.
void publishModel(engine::RunContext& ctx, int iteration, const ImagingProducts& p,
                  const std::vector<double>& parameters);

}  // namespace apertura::pipeline
