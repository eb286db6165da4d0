#include "core/data/uv_extent.h"
#include "core/imaging/dirty_mapper.h"
#include "core/imaging/geometry_check.h"
#include "core/pipeline/exact_dirty_image.h"
#include "core/pipeline/pipeline_stages.h"
#include "core/util/input_error.h"

namespace apertura::pipeline {
namespace {

constexpr double kArcsec = 3.14159265358979323846 / (180.0 * 3600.0);

}  // namespace

imaging::ImageGeometry runGeometry(const project::ProjectSettings& s, const RunData& data) {
  double cell = s.imaging.cell_arcsec ? *s.imaging.cell_arcsec * kArcsec : 0.0;
  if (cell <= 0.0) {
    if (data.max_uv_wavelengths <= 0.0) {
      throw InputError("imaging.cell_arcsec", "auto needs baselines longer than zero");
    }
    cell = suggestedCellRad(data.max_uv_wavelengths);
  }
  return imaging::ImageGeometry::fromCell(s.imaging.nx, s.imaging.ny, cell);
}

imaging::OperatorSettings operatorSettings(const project::ImagingSettings& im) {
  imaging::OperatorSettings op;
  op.epsilon = im.epsilon;
  op.oversampling = im.oversampling;
  op.kernel = im.kernel;
  op.threads = im.threads;
  op.w_stacking = im.w_stacking;
  op.double_accumulation = im.grid_accumulation == project::Precision::Double;
  return op;
}

imaging::OperatorSettings operatorSettings(const project::ImagingSettings& im,
                                           const RunData& data) {
  imaging::OperatorSettings op = operatorSettings(im);
  op.w_cover_min = data.w_cover_min;
  op.w_cover_max = data.w_cover_max;
  return op;
}

imaging::DirtyImageSettings dirtyImageSettings(const project::ProjectSettings& s,
                                               const RunData& data) {
  imaging::DirtyImageSettings d;
  d.geometry = runGeometry(s, data);
  imaging::checkImageExtent(d.geometry, data.max_uv_wavelengths, "imaging.cell_arcsec");
  imaging::checkTaper(s.weighting.taper_arcsec, d.geometry, "weighting.taper_arcsec");
  d.op = operatorSettings(s.imaging, data);
  d.weighting.scheme = s.weighting.scheme;
  d.weighting.robust = s.weighting.robust;
  d.weighting.taper_fwhm_arcsec = s.weighting.taper_arcsec;
  d.weighting.super_uniform = s.weighting.super_uniform;
  d.sum_over_processes = data.sumOverRanks();
  d.backend = {s.imaging.backend, s.imaging.gpu_device};
  return d;
}

void dirtyStage(engine::RunContext& ctx, const RunData& data, ImagingProducts& out) {
  const auto& s = ctx.settings();
  imaging::DirtyImageSettings d = dirtyImageSettings(s, data);

  // Deterministic reduction: exact sums of per-chunk partials, the same for any number of ranks.
  imaging::DirtyImageResult r = data.comm->deterministic()
                                    ? makeExactDirtyImage(*data.sequence, d)
                                    : imaging::makeDirtyImage(*data.sequence, d);
  ctx.observer().progress(1.0, "dirty image operator: " + r.operator_description);
  out.geometry = d.geometry;
  out.dirty = std::move(r.dirty);
  out.psf = std::move(r.psf);
  out.beam = r.beam;
  publishImage(ctx, "dirty", -1, out, out.dirty.data(), "Jy/beam");
  publishImage(ctx, "psf", -1, out, out.psf.data(), "");
}

}  // namespace apertura::pipeline
