#include "core/sim/simulation_request.h"

#include <cmath>
#include <sstream>

#include "core/io/fits_image_io.h"
#include "core/io/replaceable_output.h"
#include "core/sim/array_layout.h"
#include "core/sim/image_predictor.h"
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

// Puts the --sky-fits image into the sky, on the path the request asks for; returns how.
std::string addSkyImage(const SimulationRequest& o, const ObservationSpec& spec,
                        const ArrayLayout& layout, SkyModel& sky) {
  if (o.predict != "auto" && o.predict != "exact" && o.predict != "fast") {
    throw InputError("--predict", "'" + o.predict + "' is not one of exact, fast, auto");
  }
  const FitsImage image = readFitsImage(o.sky_fits);
  requireJyPerPixel(image);
  std::size_t pixels = 0;
  for (double v : image.pixels)
    pixels += v != 0.0 && !std::isnan(v) ? 1 : 0;
  const double work =
      static_cast<double>(pixels) * static_cast<double>(plannedVisibilities(spec, layout));
  const std::string why = FastImageModel::unsupportedReason(image, spec.ra_rad, spec.dec_rad);
  if (o.predict == "fast" && !why.empty()) {
    throw InputError(o.sky_fits, "--predict fast: " + why + " (use --predict exact)");
  }
  const bool fast =
      o.predict == "fast" || (o.predict == "auto" && why.empty() && work > kExactPredictLimit);
  if (fast) {
    sky.fast_image = std::make_shared<FastImageModel>(image, spec.ra_rad, spec.dec_rad);
    std::ostringstream s;
    s << "gridding operator (" << pixels << " pixels, epsilon " << sky.fast_image->epsilon() << ")";
    return s.str();
  }
  const auto points = imageToPointSources(image, spec.ra_rad, spec.dec_rad);
  sky.points.insert(sky.points.end(), points.begin(), points.end());
  std::string how = "exact DFT (" + std::to_string(points.size()) + " pixels)";
  if (o.predict == "auto" && work > kExactPredictLimit)
    how += "; the gridding operator cannot be used: " + why;
  return how;
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
  if (sky.empty() && o.sky_fits.empty()) {
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
    s << " --sky-fits " << o.sky_fits << " --predict " << o.predict;
  return s.str();
}

}  // namespace

SimulationOutcome runSimulation(const SimulationRequest& o,
                                const std::function<void(double)>& progress) {
  requireOutputApartFromInputs(
      o.output, {{"--sky-fits", o.sky_fits},
                 {"--array", o.array.rfind("ms:", 0) == 0 ? o.array.substr(3) : std::string()}});
  ObservationSpec spec = observationFrom(o);
  SkyModel sky = skyFrom(o, spec);
  const ArrayLayout layout = arrayLayoutFromSpec(o.array, o.seed);
  SimulationOutcome out;
  if (!o.sky_fits.empty())
    out.image_prediction = addSkyImage(o, spec, layout, sky);
  spec.history.push_back(simulationCommandLine(o));
  out.format = outputFormatForPath(o.output);
  out.summary = simulateObservation(sky, layout, spec, o.output, out.format, o.overwrite, progress);
  out.antennas = layout.antennas.size();
  out.telescope = layout.telescope_name;
  return out;
}

std::string simulationCommandLine(const SimulationRequest& o) {
  return commandLine(o);
}

}  // namespace apertura::sim
