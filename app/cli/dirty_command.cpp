#include "app/cli/dirty_command.h"

#include <CLI/CLI.hpp>

#include <cmath>
#include <iostream>
#include <sstream>

#include "core/imaging/dirty_mapper.h"
#include "core/io/fits_image_io.h"
#include "core/io/visibility_source_factory.h"
#include "core/util/input_error.h"

namespace apertura::cli {

namespace {
const double kArcsec = M_PI / 180.0 / 3600.0;
}

CLI::App* addDirtyCommand(CLI::App& app, DirtyOptions& o) {
  auto* cmd = app.add_subcommand("dirty", "Make a dirty image and PSF (FITS)");
  cmd->add_option("data", o.data, "Measurement Set or UVFITS file")->required();
  cmd->add_option("--size", o.size, "Image size in pixels (even)")->check(CLI::Range(2, 65536));
  cmd->add_option("--cell", o.cell_arcsec, "Cell size in arcsec")->check(CLI::PositiveNumber);
  cmd->add_option("--weight", o.weighting, "natural | uniform | radial | briggs:R");
  cmd->add_option("--taper", o.taper_arcsec, "Gaussian uv taper, image-plane FWHM in arcsec");
  cmd->add_option("--super-uniform", o.super_uniform, "Weight-grid cell size factor");
  cmd->add_option("--epsilon", o.epsilon, "Gridding accuracy");
  cmd->add_option("--oversampling", o.oversampling, "Grid oversampling factor (1.2 .. 2.5)");
  cmd->add_flag("--wstack", o.w_stacking, "Correct the w-term by w-stacking");
  cmd->add_option("--threads", o.threads, "Threads (0: all)");
  cmd->add_option("-o,--output", o.output_prefix, "Output prefix")->required();
  return cmd;
}

int runDirty(const DirtyOptions& o) {
  if (o.size % 2)
    throw InputError("--size", "the image size must be even");
  ReadOptions read;
  auto source = openVisibilitySource(o.data, read);
  std::vector<VisibilityChunk> chunks;
  VisibilityChunk chunk;
  while (source->next(chunk))
    chunks.push_back(chunk);
  if (chunks.empty())
    throw InputError(o.data, "no visibilities selected");
  std::vector<const VisibilityChunk*> ptrs;
  for (const auto& c : chunks)
    ptrs.push_back(&c);

  imaging::DirtyImageSettings s;
  s.geometry = imaging::ImageGeometry::fromCell(o.size, o.size, o.cell_arcsec * kArcsec);
  s.op.epsilon = o.epsilon;
  s.op.oversampling = o.oversampling;
  s.op.w_stacking = o.w_stacking;
  s.op.threads = o.threads;
  s.weighting = imaging::WeightingSettings::parse(o.weighting);
  s.weighting.taper_fwhm_arcsec = o.taper_arcsec;
  s.weighting.super_uniform = o.super_uniform;
  const auto result = imaging::makeDirtyImage(ptrs, s);

  const SourceInfo& info = source->info();
  FitsImage img;
  img.nx = img.ny = o.size;
  img.cell_x_rad = s.geometry.cell_l;
  img.cell_y_rad = s.geometry.cell_m;
  img.ref_pixel_x = o.size / 2;
  img.ref_pixel_y = o.size / 2;
  for (const auto& f : info.fields)
    if (f.id == chunks.front().field_id) {
      img.ref_ra_rad = f.ra_rad;
      img.ref_dec_rad = f.dec_rad;
      img.object = f.name;
    }
  if (result.frequencies_hz.size() == 2) {
    img.frequency_hz = 0.5 * (result.frequencies_hz[0] + result.frequencies_hz[1]);
    img.bandwidth_hz = result.frequencies_hz[1] - result.frequencies_hz[0];
  }
  img.telescope = info.telescope;
  img.beam = ImageBeam{result.beam.bmaj, result.beam.bmin, result.beam.bpa};
  img.history = {"apertura-cli dirty " + o.data, "weighting: " + s.weighting.describe(),
                 "operator: " + result.operator_description,
                 "samples imaged: " + std::to_string(result.samples)};
  img.bunit = "JY/BEAM";
  img.pixels.assign(result.dirty.begin(), result.dirty.end());
  writeFitsImage(o.output_prefix + "-dirty.fits", img);
  img.pixels.assign(result.psf.begin(), result.psf.end());
  writeFitsImage(o.output_prefix + "-psf.fits", img);
  std::cout << "dirty image: " << o.output_prefix << "-dirty.fits, PSF: " << o.output_prefix
            << "-psf.fits\nbeam: " << result.beam.bmaj / kArcsec << " x "
            << result.beam.bmin / kArcsec << " arcsec, PA " << result.beam.bpa * 180.0 / M_PI
            << " deg; " << result.samples << " samples, sum of weights " << result.sum_weights
            << "\n";
  return 0;
}

}  // namespace apertura::cli
