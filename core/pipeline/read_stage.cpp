#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

#include "core/data/exact_sum.h"
#include "core/data/noise_scatter.h"
#include "core/engine/memory_estimate.h"
#include "core/engine/memory_tracker.h"
#include "core/engine/process_resources.h"
#include "core/engine/rank_rows.h"
#include "core/engine/rank_warnings.h"
#include "core/imaging/w_stacking.h"
#include "core/io/stokes_product.h"
#include "core/io/streamed_chunks.h"
#include "core/io/visibility_source_factory.h"
#include "core/pipeline/pipeline_stages.h"
#include "core/pipeline/read_totals.h"
#include "core/util/input_error.h"

namespace apertura::pipeline {
namespace {

DataColumn columnOf(const std::string& name) {
  if (name == "DATA")
    return DataColumn::kData;
  if (name == "CORRECTED_DATA")
    return DataColumn::kCorrectedData;
  if (name == "MODEL_DATA")
    return DataColumn::kModelData;
  return DataColumn::kAuto;
}

ReadOptions readOptions(const project::ProjectSettings& s, const CancellationToken& token) {
  ReadOptions o;
  const auto& d = s.data;
  if (d.field_id)
    o.selection.field_ids = {*d.field_id};
  o.selection.spectral_windows = d.spectral_windows;
  o.selection.channel_start = d.channel_start;
  if (d.channel_end)
    o.selection.channel_count = *d.channel_end - d.channel_start + 1;
  const auto product = parseProduct(d.product);
  if (!product)
    throw InputError("data.product", "unknown product '" + d.product + "'");
  o.selection.product = *product;
  o.selection.data_column = columnOf(d.column);
  o.chunk_rows = d.chunk_rows;
  o.memory_budget_bytes =
      d.memory_budget_gb
          ? static_cast<std::size_t>(*d.memory_budget_gb * double(std::size_t{1} << 30))
          : static_cast<std::size_t>(engine::physicalMemoryBytes() / 2);
  // The pipeline decides what to hold (RunData); the source itself always reads from disk.
  o.mode = ReadMode::kStreaming;
  o.cancel = &token;
  return o;
}

engine::MemoryEstimate estimateFor(const project::ProjectSettings& s, const SourceInfo& info,
                                   const engine::Communicator& comm) {
  engine::DataVolume volume;
  volume.processes = comm.size();
  volume.deterministic_reduction = comm.deterministic();
  volume.rows = info.rows;
  volume.samples = info.samples;
  volume.channels_per_row = std::max(1, static_cast<int>(info.max_channels));
  volume.spectral_windows = std::max<int>(
      1, static_cast<int>(s.data.spectral_windows.empty() ? info.spectral_windows.size()
                                                          : s.data.spectral_windows.size()));
  volume.fractional_band = fractionalBandwidth(info.spectral_windows, s.data.spectral_windows);
  return engine::estimateMemory(s, volume, engine::physicalMemoryBytes());
}

// The engine's memory estimate decides (data.mode, the budget; w-stacking always holds the data).
bool keepResident(engine::RunContext& ctx, const engine::MemoryEstimate& estimate) {
  const auto& s = ctx.settings();
  if (estimate.resident && !estimate.fitsBudget())
    ctx.observer().warning(
        std::string(s.imaging.w_stacking ? "imaging.w_stacking" : "data.mode resident") +
        " keeps every visibility in memory although the memory estimate exceeds the budget: " +
        estimate.describe());
  return estimate.resident;
}

// What a distributed run cannot do yet, refused before any rank reads.
void checkDistributable(const project::ProjectSettings& s, const engine::Communicator& comm) {
  if (s.imaging.w_stacking && comm.deterministic())
    throw InputError("imaging.w_stacking",
                     "cannot be combined with the deterministic reduction (it sums per-chunk "
                     "partials; w-stacking grids all chunks at once)");
}

// w-stacking on several ranks: every rank's operator must use the same w planes, so the planes
// cover the w range of all ranks' samples (each rank alone would fit its own).
void agreeOnWRange(engine::Communicator& comm, RunData& data) {
  std::vector<imaging::UvwBlock> blocks;
  std::size_t samples = 0;
  for (const auto& c : data.chunks) {
    blocks.push_back(imaging::UvwBlock::of(c));
    samples += c.num_samples();
  }
  double w_min = 0.0, w_max = 0.0;
  imaging::wRange(blocks, w_min, w_max);
  const double none = -std::numeric_limits<double>::infinity();
  data.w_cover_max = maxOverRanks(comm, samples > 0 ? w_max : none);
  data.w_cover_min = -maxOverRanks(comm, samples > 0 ? -w_min : none);
}

// Weights that disagree with the visibilities' own scatter are not absolute: the normalised
// objective rescales them, and the user should know.
void reportNoise(engine::RunContext& ctx, const RunData& data, ImagingProducts& out) {
  char text[320];
  if (data.scatter_pairs < NoiseScatter::kMinPairs) {
    ctx.observer().progress(1.0,
                            "noise: too few neighbouring samples to check the weights "
                            "against the visibilities' scatter; taken as absolute");
  } else if (data.weight_scale > 1.5 || data.weight_scale < 1.0 / 1.5) {
    std::snprintf(text, sizeof text,
                  "the weights do not look absolute: the visibilities scatter with %.3g times "
                  "the variance the weights claim (from %zu differences of neighbouring "
                  "samples); the normalised objective rescales them",
                  data.weight_scale, data.scatter_pairs);
    out.warnings.emplace_back(text);
    ctx.observer().warning(text);
  } else {
    std::snprintf(text, sizeof text,
                  "noise: the visibilities scatter as their weights say (variance ratio %.3g "
                  "from %zu differences)",
                  data.weight_scale, data.scatter_pairs);
    ctx.observer().progress(1.0, text);
  }
  if (data.duplicate_fraction > 0.01) {
    std::snprintf(text, sizeof text,
                  "%.0f %% of the rows repeat another row (same baseline and time); they are "
                  "counted once in the image noise",
                  100.0 * data.duplicate_fraction);
    out.warnings.emplace_back(text);
    ctx.observer().warning(text);
  }
}

// The source the run reads, opened with every choice made: the field ("auto": the first that
// has data), this rank's rows, and (streaming) chunks the size the memory estimate counted,
// which also decides data.streaming. `options` ends as the source's; `estimate` receives the
// memory estimate of what it selects.
std::unique_ptr<VisibilitySource> chooseSource(engine::RunContext& ctx, RunData& data,
                                               ReadOptions& options, ImagingProducts& out,
                                               engine::MemoryEstimate& estimate) {
  const auto& s = ctx.settings();
  engine::Communicator& comm = *data.comm;
  if (data.distributed()) {
    checkDistributable(s, comm);
    // A rank that stops reading on its own would leave the others waiting in a collective:
    // distributed runs are cancelled together, between iterations (rank_agreement.h).
    options.cancel = nullptr;
  }
  auto source = openVisibilitySource(s.data.path, options);
  if (!s.data.field_id && source->info().fields.size() > 1) {
    // "auto": the first field that has data. Mosaics must not be imaged as one pointing.
    VisibilityChunk first;
    if (!source->next(first))
      throw InputError(s.data.path, "no visibilities match the selection");
    options.selection.field_ids = {first.field_id};
    source = openVisibilitySource(s.data.path, options);
    ctx.observer().warning("data.field_id is auto: imaging field " +
                           std::to_string(first.field_id) + " (" +
                           source->info().fields.at(std::size_t(first.field_id)).name + ")");
  }
  if (data.distributed()) {
    // The deterministic reduction sums per-chunk partials: each rank must hold whole chunks.
    options.row_range = comm.deterministic()
                            ? engine::chunkAlignedRowRangeForRank(s.data.path, options, comm)
                            : engine::balancedRowRangeForRank(s.data.path, options, comm);
    source = openVisibilitySource(s.data.path, options);
  }
  estimate = estimateFor(s, source->info(), comm);
  data.streaming = !keepResident(ctx, estimate);
  data.psf_mode_in_budget = estimate.psf_mode;
  out.data_mode = data.streaming ? "streaming" : "resident";
  if (data.streaming && !s.data.chunk_rows) {
    // Chunks the size the estimate counted (the budget-derived default can be far larger).
    options.chunk_rows = static_cast<std::size_t>(estimate.chunk_rows);
    source = openVisibilitySource(s.data.path, options);
  }
  return source;
}

}  // namespace

void readStage(engine::RunContext& ctx, RunData& data, ImagingProducts& out) {
  const auto& s = ctx.settings();
  if (s.data.path.empty())
    throw InputError("data.path", "no data set chosen");
  std::error_code missing;
  if (!std::filesystem::exists(s.data.path, missing))  // name the setting, not only the path
    throw InputError("data.path", "'" + s.data.path + "': no such file or directory");
  ReadOptions options = readOptions(s, ctx.cancellation());
  engine::Communicator& comm = *data.comm;
  engine::MemoryEstimate estimate;
  std::unique_ptr<VisibilitySource> source = chooseSource(ctx, data, options, out, estimate);
  const bool keep_rows =
      data.streaming && (s.output.write_model_column || s.output.write_residual_column);

  const SourceInfo& info = source->info();
  data.chunks.clear();
  data.streamed_rows.clear();
  data.totals = {};
  VisibilityChunk chunk;
  ReadTotals totals;
  data.channel_widths_hz.clear();
  for (const SpectralWindowInfo& w : info.spectral_windows) {
    if (w.id >= 0) {
      if (data.channel_widths_hz.size() <= std::size_t(w.id))
        data.channel_widths_hz.resize(std::size_t(w.id) + 1, 0.0);
      data.channel_widths_hz[std::size_t(w.id)] = std::fabs(w.channel_width_hz);
    }
  }
  NoiseScatter scatter;
  while (source->next(chunk)) {
    ctx.checkpoint();
    totals.add(chunk, data.channelWidth(chunk.spectral_window_id), s.data.path);
    scatter.add(chunk);
    if (keep_rows)
      data.streamed_rows.push_back({chunk.source_rows, chunk.frequencies_hz});
    if (!data.streaming) {
      data.chunks.push_back(std::move(chunk));
      chunk = VisibilityChunk{};
    }
    ctx.observer().progress(info.rows ? double(totals.rows) / double(info.rows) : 1.0,
                            "read " + std::to_string(totals.rows) + " rows");
  }
  if (data.distributed()) {
    totals.sumOverRanks(comm);
    // Each rank's estimate is of its own share: the PSF mode (collective: its PSF is summed over
    // the ranks) only when it fits on every rank.
    data.psf_mode_in_budget = maxOverRanks(comm, data.psf_mode_in_budget ? 0.0 : 1.0) == 0.0;
  }
  if (data.distributed() && s.imaging.w_stacking)
    agreeOnWRange(comm, data);
  scatter.sumOverProcesses(data.sumOverRanks());
  data.weight_scale = scatter.weightScale();
  data.scatter_pairs = scatter.pairs();
  data.duplicate_fraction = scatter.duplicateFraction();
  reportNoise(ctx, data, out);
  data.totals = totals.weighted;
  if (comm.deterministic())  // the same total for any number of ranks (exact_sum.h)
    data.totals.sum_weights = ExactSum::total(totals.chunk_weight_sums, data.sumOverRanks());
  if (totals.chunks == 0)
    throw InputError(s.data.path, "no visibilities match the selection");
  // Readers count what they saw of their own rows: a distributed run reports the totals.
  const std::vector<std::string> warnings =
      data.distributed() ? engine::mergeWarningsOverRanks(source->warnings(), comm)
                         : source->warnings();
  for (const auto& w : warnings) {
    out.warnings.push_back(w);
    ctx.observer().warning(w);
  }
  if (data.totals.valid_samples == 0)
    throwNothingToImage(s.data.path, warnings);
  std::size_t bytes = 0;
  for (const auto& c : data.chunks) {
    bytes += c.uvw_m.size() * sizeof(double) + c.visibilities.size() * 8 + c.weights.size() * 4 +
             c.frequencies_hz.size() * sizeof(double);
  }
  if (data.streaming) {
    bytes = static_cast<std::size_t>(estimate.visibility_bytes);
    data.source = std::move(source);
    data.sequence = std::make_unique<StreamedChunks>(*data.source);
    ctx.observer().progress(1.0, "streaming " + std::to_string(totals.rows) + " rows in " +
                                     std::to_string(totals.chunks) +
                                     " chunks from disk on every pass (data.mode " +
                                     project::choiceName(s.data.mode) + ")");
  } else {
    data.sequence = std::make_unique<HeldChunks>(data.chunks);
  }
  data.tracked.reset(engine::MemoryCategory::Visibilities, bytes);
  // metres -> wavelengths at the highest frequency: the longest uv distance the grid must hold.
  data.max_uv_wavelengths = totals.longest_baseline_m * totals.max_frequency_hz / 299792458.0;
  data.min_frequency_hz = std::isfinite(totals.min_frequency_hz) ? totals.min_frequency_hz : 0.0;
  data.max_frequency_hz = totals.max_frequency_hz;
  out.rows = totals.rows;
  out.samples = totals.samples;
  out.start_time_mjd_s = totals.start_time_mjd_s;
  out.frequency_hz = totals.meanFrequencyHz();
  out.bandwidth_hz =
      std::isfinite(totals.band_low_hz) ? totals.band_high_hz - totals.band_low_hz : 0.0;
  // The field of this rank's first chunk (a rank without rows: the selection's).
  const int field = totals.first_field >= 0               ? totals.first_field
                    : options.selection.field_ids.empty() ? 0
                                                          : options.selection.field_ids.front();
  out.telescope = info.telescope;
  if (field >= 0 && std::size_t(field) < info.fields.size()) {
    out.phase_centre_ra_rad = info.fields[std::size_t(field)].ra_rad;
    out.phase_centre_dec_rad = info.fields[std::size_t(field)].dec_rad;
    out.object = info.fields[std::size_t(field)].name;
  }
}

}  // namespace apertura::pipeline
