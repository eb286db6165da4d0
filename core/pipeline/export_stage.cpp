#include <cstdio>
#include <sstream>

#include "core/io/fits_cube_io.h"
#include "core/io/fits_image_io.h"
#include "core/io/ms_model_writer.h"
#include "core/io/selection.h"
#include "core/pipeline/pipeline_stages.h"
#include "core/project/project_file.h"
#include "core/util/atomic_file.h"
#include "core/util/sky_format.h"
#include "core/version.h"

namespace apertura::pipeline {
namespace {

// FITS HISTORY cards hold 70 characters: the settings go in as one JSON line per card.
std::vector<std::string> provenance(const project::ProjectSettings& s) {
  std::vector<std::string> lines = {std::string("Apertura ") + kVersion + " RML imaging"};
  std::istringstream json(project::projectToJson(s, ""));
  std::string line;
  while (std::getline(json, line)) {
    const auto first = line.find_first_not_of(' ');
    if (first == std::string::npos)
      continue;
    line = line.substr(first);
    while (line.size() > 70) {
      lines.push_back(line.substr(0, 70));
      line = line.substr(70);
    }
    lines.push_back(line);
  }
  return lines;
}

// The header every output image shares: the run's geometry, phase centre, object and date.
FitsImage imageHeader(const ImagingProducts& p, const std::string& bunit,
                      const std::vector<std::string>& history) {
  FitsImage f;
  f.nx = p.geometry.nx;
  f.ny = p.geometry.ny;
  f.cell_x_rad = p.geometry.cell_l;
  f.cell_y_rad = p.geometry.cell_m;
  f.ref_pixel_x = p.geometry.nx / 2;
  f.ref_pixel_y = p.geometry.ny / 2;
  f.ref_ra_rad = p.phase_centre_ra_rad;
  f.ref_dec_rad = p.phase_centre_dec_rad;
  f.bunit = bunit;
  f.object = p.object;
  f.telescope = p.telescope;
  if (p.start_time_mjd_s > 0.0)
    f.date_obs = formatMjdSeconds(p.start_time_mjd_s);
  f.history = history;
  return f;
}

// A cube run's image (plane-major pixels) has a FREQ axis and one beam per plane.
template <typename T>
void writeImage(const std::string& path, const std::vector<T>& pixels, const std::string& bunit,
                bool with_beam, const ImagingProducts& p, const std::vector<std::string>& history) {
  if (!p.plane_frequencies_hz.empty()) {
    FitsCube c;
    c.header = imageHeader(p, bunit, history);
    c.planes = p.planes;
    c.pixels.assign(pixels.begin(), pixels.end());
    c.frequencies_hz = p.plane_frequencies_hz;
    c.bandwidths_hz = p.plane_bandwidths_hz;
    if (with_beam) {
      for (const auto& b : p.plane_beams)
        c.beams.push_back(ImageBeam{b.bmaj, b.bmin, b.bpa});
    }
    writeFitsCube(path, c);
    return;
  }
  FitsImage f = imageHeader(p, bunit, history);
  f.pixels.assign(pixels.begin(), pixels.end());
  f.frequency_hz = p.frequency_hz;
  f.bandwidth_hz = p.bandwidth_hz;
  if (with_beam)
    f.beam = ImageBeam{p.beam.bmaj, p.beam.bmin, p.beam.bpa};
  writeFitsImage(path, f);
}

std::string metricsCsv(const ImagingProducts& p) {
  std::ostringstream o;
  o.precision(10);
  o << "iteration,objective,chi2_per_dof,gradient_norm,step,seconds";
  const std::vector<std::pair<std::string, double>> none;
  const auto& names = p.metrics.empty() ? none : p.metrics.front().terms;
  for (const auto& t : names)
    o << "," << t.first;
  o << "\n";
  for (const auto& m : p.metrics) {
    o << m.iteration << "," << m.objective << "," << m.chi2_per_dof << "," << m.gradient_norm << ","
      << m.step << "," << m.seconds;
    for (const auto& t : m.terms)
      o << "," << t.second;
    o << "\n";
  }
  return o.str();
}

// Writes per-chunk values (model or residual visibilities) into one column of `ms`.
void writeColumn(const project::ProjectSettings& s, const RunData& data, const std::string& ms,
                 const std::string& output, bool in_place, const std::string& column,
                 std::vector<std::vector<std::complex<float>>>& values) {
  ModelWriteRequest r;
  r.input_path = ms;
  r.output_path = output;
  r.in_place = in_place;
  r.column = column;
  r.product = parseProduct(s.data.product).value_or(Product::I);
  const std::size_t chunks = data.streaming ? data.streamed_rows.size() : data.chunks.size();
  for (std::size_t b = 0; b < chunks && b < values.size(); ++b) {
    ModelBlock block;
    block.source_rows =
        data.streaming ? data.streamed_rows[b].source_rows : data.chunks[b].source_rows;
    block.channel_start = static_cast<std::size_t>(s.data.channel_start);
    block.frequencies_hz =
        data.streaming ? data.streamed_rows[b].frequencies_hz : data.chunks[b].frequencies_hz;
    block.values = std::move(values[b]);
    r.blocks.push_back(std::move(block));
  }
  values.clear();
  writeModelColumn(r);
}

// Model and residual visibilities go into a copy of the input (<prefix>-model.ms unless named),
// or into the input itself only when the project says so.
void writeVisibilitiesBack(const project::ProjectSettings& s, const RunData& data,
                           ImagingProducts& p) {
  const auto& o = s.output;
  const std::string target =
      o.model_in_place ? s.data.path : (o.model_ms.empty() ? o.prefix + "-model.ms" : o.model_ms);
  bool target_exists = o.model_in_place;  // the copy is made by the first write
  if (o.write_model_column) {
    writeColumn(s, data, s.data.path, target_exists ? "" : target, target_exists, o.model_column,
                p.model_visibilities);
    target_exists = true;
  }
  if (o.write_residual_column) {
    writeColumn(s, data, target_exists ? target : s.data.path, target_exists ? "" : target,
                target_exists, o.residual_column, p.residual_visibilities);
  }
  p.written_files.push_back(o.model_in_place ? s.data.path + " (columns)" : target);
}

}  // namespace

void exportStage(engine::RunContext& ctx, const RunData& data, ImagingProducts& p) {
  const auto& s = ctx.settings();
  const std::string& prefix = s.output.prefix;
  if ((s.output.write_model_column || s.output.write_residual_column) &&
      (!prefix.empty() || s.output.model_in_place || !s.output.model_ms.empty())) {
    writeVisibilitiesBack(s, data, p);
  }
  if (prefix.empty())
    return;
  const std::vector<std::string> history = provenance(s);
  const auto emit = [&](bool wanted, const std::string& suffix, auto&& write) {
    if (!wanted)
      return;
    const std::string path = prefix + suffix;
    write(path);
    p.written_files.push_back(path);
  };
  emit(s.output.dirty && !p.dirty.empty(), "-dirty.fits",
       [&](const std::string& f) { writeImage(f, p.dirty, "JY/BEAM", true, p, history); });
  emit(s.output.psf && !p.psf.empty(), "-psf.fits",
       [&](const std::string& f) { writeImage(f, p.psf, "", true, p, history); });
  emit(s.output.model && !p.model.empty(), "-model.fits",
       [&](const std::string& f) { writeImage(f, p.model, "JY/PIXEL", false, p, history); });
  emit(s.output.residual && !p.residual.empty(), "-residual.fits",
       [&](const std::string& f) { writeImage(f, p.residual, "JY/BEAM", true, p, history); });
  emit(s.output.restored && !p.restored.empty(), "-restored.fits",
       [&](const std::string& f) { writeImage(f, p.restored, "JY/BEAM", true, p, history); });
  emit(s.output.metrics_csv, "-metrics.csv",
       [&](const std::string& f) { writeFileAtomically(f, metricsCsv(p)); });
}

}  // namespace apertura::pipeline
