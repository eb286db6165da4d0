#include "core/sim/simulation_request.h"

#include <sstream>

#include "core/io/fits_image_io.h"
#include "core/sim/array_layout.h"
#include "core/sim/image_sky.h"
#include "core/sim/sky_spec.h"
#include "core/util/input_error.h"

namespace apertura::sim {

namespace {

ObservationSpec observationFrom(const SimulationRequest& o) {
  ObservationSpec spec;
  spec.ra_rad = parseRightAscension(o.ra);
  spec.dec_rad = parseDeclination(o.dec);
  spec.date_mjd = o.date_mjd;
  spec.duration_h = o.hours;
  spec.start_hour_angle_h = o.start_ha_h;
  spec.integration_s = o.integration_s;
  spec.spectral_windows.clear();
  for (const auto& s : o.spws)
    spec.spectral_windows.push_back(parseSpectralWindowSpec(s));
  if (spec.spectral_windows.empty()) {
    spec.spectral_windows.push_back({o.freq_hz, o.chan_width_hz, o.nchan});
  }
  spec.basis = o.feeds == "circular" ? CorrelationBasis::Circular : CorrelationBasis::Linear;
  spec.sigma_jy = o.sigma_jy;
  spec.sefd_jy = o.sefd_jy;
  spec.seed = o.seed;
  return spec;
}

SkyModel skyFrom(const SimulationRequest& o, const ObservationSpec& spec) {
  SkyModel sky;
  sky.reference_frequency_hz =
      o.ref_freq_hz > 0.0 ? o.ref_freq_hz : spec.spectral_windows.front().first_frequency_hz;
  for (const auto& p : o.points)
    sky.points.push_back(parsePointSpec(p));
  for (const auto& g : o.gaussians)
    sky.gaussians.push_back(parseGaussianSpec(g));
  for (const auto& d : o.disks)
    sky.disks.push_back(parseDiskSpec(d));
  if (!o.sky_fits.empty()) {
    const auto pixels = imageToPointSources(readFitsImage(o.sky_fits), spec.ra_rad, spec.dec_rad);
    sky.points.insert(sky.points.end(), pixels.begin(), pixels.end());
  }
  if (sky.empty()) {
    throw InputError("simulate", "no sky model: give --point, --gaussian, --disk or --sky-fits");
  }
  return sky;
}

std::string commandLine(const SimulationRequest& o) {
  std::ostringstream s;
  s << "apertura-cli simulate --array " << o.array << " --ra " << o.ra << " --dec " << o.dec
    << " --hours " << o.hours << " --start-ha " << o.start_ha_h << " --integration "
    << o.integration_s << " --seed " << o.seed;
  for (const auto& p : o.points)
    s << " --point " << p;
  for (const auto& g : o.gaussians)
    s << " --gaussian " << g;
  for (const auto& d : o.disks)
    s << " --disk " << d;
  if (!o.sky_fits.empty())
    s << " --sky-fits " << o.sky_fits;
  return s.str();
}

}  // namespace

SimulationOutcome runSimulation(const SimulationRequest& o,
                                const std::function<void(double)>& progress) {
  ObservationSpec spec = observationFrom(o);
  const SkyModel sky = skyFrom(o, spec);
  const ArrayLayout layout = arrayLayoutFromSpec(o.array, o.seed);
  spec.history.push_back(simulationCommandLine(o));
  SimulationOutcome out;
  out.summary = simulateMeasurementSet(sky, layout, spec, o.output, o.overwrite, progress);
  out.antennas = layout.antennas.size();
  out.telescope = layout.telescope_name;
  return out;
}

std::string simulationCommandLine(const SimulationRequest& o) {
  return commandLine(o);
}

}  // namespace apertura::sim
