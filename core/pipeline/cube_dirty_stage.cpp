#include <cmath>

#include "core/imaging/dirty_mapper.h"
#include "core/pipeline/cube_stages.h"
#include "core/pipeline/pipeline_stages.h"
#include "core/pipeline/regularizer_factory.h"
#include "core/util/input_error.h"

namespace apertura::pipeline {

void checkCubeSupported(const project::ProjectSettings& s, const engine::Communicator& comm) {
  if (comm.size() > 1 && comm.deterministic())
    throw InputError("imaging.spectral_mode",
                     "cube cannot be combined with the deterministic reduction "
                     "(--deterministic-reduction) in a distributed run");
  if (s.imaging.w_stacking)
    throw InputError("imaging.spectral_mode", "cube cannot be combined with imaging.w_stacking");
  if (s.output.write_model_column || s.output.write_residual_column)
    throw InputError("imaging.spectral_mode",
                     "writing visibilities back is not available for a cube");
}

void cubeDirtyStage(engine::RunContext& ctx, RunData& data, CubeData& cube, ImagingProducts& out) {
  const auto& s = ctx.settings();
  // One cell for every plane (the highest frequency's, over every rank's samples); the dirty
  // images are summed over the ranks of a distributed run.
  imaging::DirtyImageSettings d = dirtyImageSettings(s, data);

  cube = splitIntoPlanes(data, s.imaging.channels_per_plane);
  const std::size_t planes = cube.planes.size();
  // A regularizer's plane list past the last plane: refused before any imaging work.
  checkRegularizerPlanes(s.regularizers, int(planes));
  out.geometry = d.geometry;
  out.planes = int(planes);
  out.dirty.clear();
  out.psf.clear();
  out.plane_beams.clear();
  out.plane_frequencies_hz.clear();
  out.plane_bandwidths_hz.clear();
  for (std::size_t k = 0; k < planes; ++k) {
    ctx.checkpoint();
    const CubePlane& p = cube.planes[k];
    if (cube.totals[k].valid_samples == 0) {
      const std::string w = "cube plane " + std::to_string(k) + " (" +
                            std::to_string(p.frequency_hz * 1e-6) +
                            " MHz) has no unflagged samples: its images are zero";
      out.warnings.push_back(w);
      ctx.observer().warning(w);
    }
    imaging::DirtyImageResult r = imaging::makeDirtyImage(*cube.sequences[k], d);
    if (k == 0)
      ctx.observer().progress(0.0, "dirty image operator: " + r.operator_description);
    out.dirty.insert(out.dirty.end(), r.dirty.begin(), r.dirty.end());
    out.psf.insert(out.psf.end(), r.psf.begin(), r.psf.end());
    out.plane_beams.push_back(r.beam);
    out.plane_frequencies_hz.push_back(p.frequency_hz);
    out.plane_bandwidths_hz.push_back(p.bandwidth_hz);
    ctx.observer().progress(
        double(k + 1) / double(planes),
        "dirty image of plane " + std::to_string(k + 1) + " of " + std::to_string(planes));
  }
  out.beam = out.plane_beams.front();
  if (planes > 2) {
    const auto& f = out.plane_frequencies_hz;
    const double step = (f.back() - f.front()) / double(planes - 1);
    for (std::size_t k = 1; k + 1 < planes; ++k) {
      if (std::fabs(f[k] - (f.front() + double(k) * step)) > 1e-6 * std::fabs(step)) {
        const std::string w =
            "cube planes are not evenly spaced in frequency (several spectral windows or "
            "channel groups of unequal width): the FITS FREQ axis gives their mean spacing and "
            "HISTORY cards list each plane's frequency";
        out.warnings.push_back(w);
        ctx.observer().warning(w);
        break;
      }
    }
  }
  // One snapshot each, holding every plane with its frequency and beam.
  publishImage(ctx, "dirty", -1, out, out.dirty.data(), "Jy/beam");
  publishImage(ctx, "psf", -1, out, out.psf.data(), "");
}

}  // namespace apertura::pipeline
