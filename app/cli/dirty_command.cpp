#include "app/cli/dirty_command.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "app/cli/abandonable_call.h"
#include "core/data/uv_extent.h"
#include "core/engine/interrupt.h"
#include "core/imaging/dirty_mapper.h"
#include "core/imaging/geometry_check.h"
#include "core/io/fits_image_io.h"
#include "core/io/selection.h"
#include "core/io/stokes_product.h"
#include "core/io/visibility_source_factory.h"
#include "core/util/input_error.h"
#include "core/util/output_probe.h"
#include "core/util/output_set.h"
#include "core/util/temporary_names.h"

namespace apertura::cli {

namespace {
const double kArcsec = M_PI / 180.0 / 3600.0;
}

CLI::App* addDirtyCommand(CLI::App& app, DirtyOptions& o) {
  auto* cmd = app.add_subcommand("dirty", "Make a dirty image and PSF (FITS)");
  cmd->add_option("data", o.data, "Measurement Set or UVFITS file")->required();
  cmd->add_option("--field", o.field,
                  "FIELD_ID (UVFITS: source index) to image; default: the "
                  "first field that has data");
  cmd->add_option("--spw", o.spectral_windows, "Spectral windows / IFs (0-based), comma-separated")
      ->delimiter(',');
  cmd->add_option("--channels", o.channels, "Channel range START[:END] (inclusive, 0-based)");
  cmd->add_option("--product", o.product, "I, Q, U, V, XX, YY, XY, YX, RR, LL, RL, LR");
  cmd->add_option("--column", o.column, "auto | DATA | CORRECTED_DATA | MODEL_DATA");
  cmd->add_flag("--single-hand", o.use_single_hand,
                "Stokes I from one hand where the other is flagged (assumes no polarization)");
  cmd->add_flag("--per-spw", o.per_spw, "Also image each spectral window on its own");
  cmd->add_option("--size", o.size, "Image size in pixels (even)")->check(CLI::Range(2, 65536));
  cmd->add_option("--cell", o.cell_arcsec, "Cell size in arcsec")->check(CLI::PositiveNumber);
  cmd->add_option("--weight", o.weighting, "natural | uniform | radial | briggs:R");
  cmd->add_option("--taper", o.taper_arcsec, "Gaussian uv taper, image-plane FWHM in arcsec");
  cmd->add_option("--super-uniform", o.super_uniform, "Weight-grid cell size factor");
  cmd->add_option("--epsilon", o.epsilon, "Gridding accuracy (1e-14 .. 0.1)")
      ->check(CLI::Range(1e-14, 0.1));
  cmd->add_option("--oversampling", o.oversampling, "Grid oversampling factor (1.2 .. 2.5)")
      ->check(CLI::Range(1.2, 2.5));
  cmd->add_flag("--wstack", o.w_stacking, "Correct the w-term by w-stacking");
  cmd->add_option("--threads", o.threads, "Threads (0: all)")->check(CLI::Range(0, 4096));
  cmd->add_option("-o,--output", o.output_prefix, "Output prefix")->required();
  return cmd;
}

namespace {

VisibilitySelection selectionOf(const DirtyOptions& o) {
  VisibilitySelection sel;
  if (o.field >= 0)
    sel.field_ids = {o.field};
  sel.spectral_windows = o.spectral_windows;
  if (!o.channels.empty()) {
    const auto colon = o.channels.find(':');
    try {
      std::size_t used = 0;
      sel.channel_start = std::stoi(o.channels.substr(0, colon), &used);
      if (used != colon && colon != std::string::npos)
        throw std::invalid_argument("channels");
      if (colon != std::string::npos) {
        const int end = std::stoi(o.channels.substr(colon + 1));
        if (end < sel.channel_start)
          throw std::invalid_argument("channels");
        sel.channel_count = end - sel.channel_start + 1;
      }
    } catch (const std::logic_error&) {
      throw InputError("--channels",
                       "expected START or START:END with END >= START, got '" + o.channels + "'");
    }
    if (sel.channel_start < 0)
      throw InputError("--channels", "the first channel must be >= 0");
  }
  const auto product = parseProduct(o.product);
  if (!product)
    throw InputError("--product", "unknown product '" + o.product + "'");
  sel.product = *product;
  if (o.column == "DATA")
    sel.data_column = DataColumn::kData;
  else if (o.column == "CORRECTED_DATA")
    sel.data_column = DataColumn::kCorrectedData;
  else if (o.column == "MODEL_DATA")
    sel.data_column = DataColumn::kModelData;
  else if (o.column != "auto")
    throw InputError("--column",
                     "expected auto, DATA, CORRECTED_DATA or MODEL_DATA, got '" + o.column + "'");
  sel.single_hand = o.use_single_hand ? SingleHandPolicy::kUseAvailable : SingleHandPolicy::kDrop;
  return sel;
}

// The longest projected baseline in wavelengths (flagged rows included: an upper bound).
double maxUvWavelengths(const std::vector<VisibilityChunk>& chunks) {
  double longest = 0.0;
  for (const VisibilityChunk& c : chunks)
    longest = std::max(longest, longestBaselineWavelengths(c));
  return longest;
}

// Writes PREFIX-dirty.fits and PREFIX-psf.fits of `chunks` (held by `owner`) and prints one
// summary line. The imaging runs abandonably: a signal ends it at once.
void imageAndWrite(const std::shared_ptr<const std::vector<VisibilityChunk>>& owner,
                   const std::vector<const VisibilityChunk*>& chunks,
                   const imaging::DirtyImageSettings& s, const SourceInfo& info,
                   const DirtyOptions& o, const std::string& prefix, const std::string& what,
                   OutputSet& outputs) {
  const auto result =
      abandonableCall([owner, chunks, s] { return imaging::makeDirtyImage(chunks, s); });
  engine::throwIfInterrupted();
  FitsImage img;
  img.nx = img.ny = o.size;
  img.cell_x_rad = s.geometry.cell_l;
  img.cell_y_rad = s.geometry.cell_m;
  img.ref_pixel_x = o.size / 2;
  img.ref_pixel_y = o.size / 2;
  for (const auto& f : info.fields)
    if (f.id == chunks.front()->field_id) {
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
  img.history = {"apertura-cli dirty " + o.data,
                 "image: " + what,
                 "product: " + productName(info.product),
                 "weighting: " + s.weighting.describe(),
                 "operator: " + result.operator_description,
                 "samples imaged: " + std::to_string(result.samples)};
  img.bunit = "JY/BEAM";
  img.pixels.assign(result.dirty.begin(), result.dirty.end());
  outputs.write(prefix + "-dirty.fits", [&](const std::string& f) { writeFitsImage(f, img); });
  img.pixels.assign(result.psf.begin(), result.psf.end());
  outputs.write(prefix + "-psf.fits", [&](const std::string& f) { writeFitsImage(f, img); });
  std::cout << what << ": " << prefix << "-dirty.fits, " << prefix << "-psf.fits\n  beam "
            << result.beam.bmaj / kArcsec << " x " << result.beam.bmin / kArcsec << " arcsec, PA "
            << result.beam.bpa * 180.0 / M_PI << " deg; " << result.samples
            << " samples, sum of weights " << result.sum_weights << "\n";
}

}  // namespace

int runDirty(const DirtyOptions& o) {
  if (o.size % 2)
    throw InputError("--size", "the image size must be even");
  removeStaleTemporariesBeside(o.output_prefix);
  requireWritablePrefix(o.output_prefix, "--output");
  ReadOptions read;
  read.selection = selectionOf(o);
  auto source = openVisibilitySource(o.data, read);
  // Shared with the imaging worker, which may outlive this call when a signal abandons it.
  auto owner = std::make_shared<std::vector<VisibilityChunk>>();
  std::vector<VisibilityChunk>& chunks = *owner;
  VisibilityChunk chunk;
  while (source->next(chunk)) {
    engine::throwIfInterrupted();
    chunks.push_back(chunk);
  }
  if (chunks.empty())
    throw InputError(o.data, "no visibilities match the selection");
  const std::vector<std::string> warnings = source->warnings();
  for (const std::string& w : warnings)
    std::cerr << "warning: " << w << "\n";
  const bool any = std::any_of(chunks.begin(), chunks.end(), [](const VisibilityChunk& c) {
    return std::any_of(c.weights.begin(), c.weights.end(), [](float w) { return w > 0.0f; });
  });
  if (!any)
    throwNothingToImage(o.data, warnings);
  if (o.field < 0) {
    // A mosaic's pointings must not be imaged as one: keep the first field that has data.
    const int first = chunks.front().field_id;
    const auto other = std::remove_if(chunks.begin(), chunks.end(), [&](const VisibilityChunk& c) {
      return c.field_id != first;
    });
    if (other != chunks.end()) {
      std::cerr << "warning: several fields have data; imaging field " << first
                << " (choose with --field)\n";
      chunks.erase(other, chunks.end());
    }
  }

  imaging::DirtyImageSettings s;
  s.geometry = imaging::ImageGeometry::fromCell(o.size, o.size, o.cell_arcsec * kArcsec);
  s.op.epsilon = o.epsilon;
  s.op.oversampling = o.oversampling;
  s.op.w_stacking = o.w_stacking;
  s.op.threads = o.threads;
  s.weighting = imaging::WeightingSettings::parse(o.weighting);
  s.weighting.taper_fwhm_arcsec = o.taper_arcsec;
  s.weighting.super_uniform = o.super_uniform;
  imaging::checkImageExtent(s.geometry, maxUvWavelengths(chunks), "--cell");
  imaging::checkTaper(s.weighting.taper_fwhm_arcsec, s.geometry, "--taper");

  const SourceInfo& info = source->info();
  std::map<int, std::vector<const VisibilityChunk*>> by_spw;
  std::vector<const VisibilityChunk*> all;
  for (const auto& c : chunks) {
    all.push_back(&c);
    by_spw[c.spectral_window_id].push_back(&c);
  }
  // The images of one call appear together, after the last is written.
  OutputSet outputs;
  imageAndWrite(owner, all, s, info, o, o.output_prefix,
                by_spw.size() > 1 ? "all spectral windows (MFS)" : "dirty image", outputs);
  if (o.per_spw) {
    for (const auto& [spw, list] : by_spw) {
      imageAndWrite(owner, list, s, info, o, o.output_prefix + "-spw" + std::to_string(spw),
                    "spectral window " + std::to_string(spw), outputs);
    }
  }
  engine::throwIfInterrupted();
  outputs.commit();
  return 0;
}

}  // namespace apertura::cli
