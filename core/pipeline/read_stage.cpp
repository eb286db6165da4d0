#include <algorithm>
#include <cmath>

#include "core/engine/memory_tracker.h"
#include "core/engine/process_resources.h"
#include "core/io/visibility_source_factory.h"
#include "core/pipeline/pipeline_stages.h"
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
  o.cancel = &token;
  return o;
}

}  // namespace

void readStage(engine::RunContext& ctx, RunData& data, ImagingProducts& out) {
  const auto& s = ctx.settings();
  if (s.data.path.empty())
    throw InputError("data.path", "no data set chosen");
  ReadOptions options = readOptions(s, ctx.cancellation());
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
  const SourceInfo& info = source->info();
  data.chunks.clear();
  VisibilityChunk chunk;
  std::size_t rows = 0;
  double fmin = INFINITY, fmax = 0.0, fsum = 0.0;
  std::size_t nf = 0;
  while (source->next(chunk)) {
    ctx.checkpoint();
    rows += chunk.num_rows();
    for (std::size_t r = 0; r < chunk.num_rows(); ++r) {
      const double* uvw = &chunk.uvw_m[3 * r];
      data.max_uv_wavelengths = std::max(data.max_uv_wavelengths, std::hypot(uvw[0], uvw[1]));
    }
    for (double f : chunk.frequencies_hz) {
      fmin = std::min(fmin, f);
      fmax = std::max(fmax, f);
      fsum += f;
      ++nf;
    }
    out.samples += chunk.num_samples();
    for (double t : chunk.time_mjd_s) {
      if (out.start_time_mjd_s == 0.0 || t < out.start_time_mjd_s)
        out.start_time_mjd_s = t;
    }
    data.chunks.push_back(chunk);
    ctx.observer().progress(info.rows ? double(rows) / double(info.rows) : 1.0,
                            "read " + std::to_string(rows) + " rows");
  }
  if (data.chunks.empty())
    throw InputError(s.data.path, "no visibilities match the selection");
  for (const auto& w : source->warnings()) {
    out.warnings.push_back(w);
    ctx.observer().warning(w);
  }
  std::size_t bytes = 0;
  for (const auto& c : data.chunks) {
    bytes += c.uvw_m.size() * sizeof(double) + c.visibilities.size() * 8 + c.weights.size() * 4 +
             c.frequencies_hz.size() * sizeof(double);
  }
  data.tracked.reset(engine::MemoryCategory::Visibilities, bytes);
  // metres -> wavelengths at the highest frequency: the longest uv distance the grid must hold.
  data.max_uv_wavelengths *= fmax / 299792458.0;
  out.rows = rows;
  out.frequency_hz = fsum / double(nf);
  out.bandwidth_hz = fmax - fmin;
  out.telescope = info.telescope;
  const int field = data.chunks.front().field_id;
  if (field >= 0 && std::size_t(field) < info.fields.size()) {
    out.phase_centre_ra_rad = info.fields[std::size_t(field)].ra_rad;
    out.phase_centre_dec_rad = info.fields[std::size_t(field)].dec_rad;
    out.object = info.fields[std::size_t(field)].name;
  }
}

}  // namespace apertura::pipeline
