#include "core/sim/simulator.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>

#include "core/sim/predict.h"
#include "core/util/input_error.h"
#include "core/util/random.h"

namespace apertura::sim {
namespace {

constexpr double kSiderealDayS = 86164.0905;

void validate(const ObservationSpec& spec, const ArrayLayout& layout, const std::string& path) {
  auto fail = [&](const std::string& what) { throw InputError(path, what); };
  if (layout.antennas.size() < 2)
    fail("the array needs at least 2 antennas");
  if (!(spec.integration_s > 0.0))
    fail("integration time must be > 0");
  if (!(spec.duration_h > 0.0))
    fail("duration must be > 0");
  if (spec.spectral_windows.empty())
    fail("at least one spectral window is needed");
  for (const auto& s : spec.spectral_windows) {
    if (s.channels < 1 || !(s.first_frequency_hz > 0.0) || !(s.channel_width_hz != 0.0)) {
      fail("each spectral window needs >= 1 channel, a frequency > 0 and a non-zero width");
    }
  }
  if (spec.sigma_jy < 0.0 || spec.sefd_jy < 0.0)
    fail("noise sigma and SEFD must be >= 0");
  if (!(std::fabs(spec.dec_rad) <= 0.5 * M_PI))
    fail("declination must be within +-90 degrees");
}

MsLayout makeMsLayout(const ArrayLayout& layout, const ObservationSpec& spec, double t_start,
                      double t_end) {
  MsLayout ml;
  ml.telescope_name = layout.telescope_name;
  ml.project = "apertura-simulation";
  ml.antennas = layout.antennas;
  ml.fields.push_back({spec.source_name, spec.ra_rad, spec.dec_rad});
  for (std::size_t s = 0; s < spec.spectral_windows.size(); ++s) {
    const auto& w = spec.spectral_windows[s];
    MsSpectralWindowInfo info;
    info.name = "SPW" + std::to_string(s);
    for (int c = 0; c < w.channels; ++c) {
      info.channel_frequencies_hz.push_back(w.first_frequency_hz + c * w.channel_width_hz);
    }
    info.channel_width_hz = w.channel_width_hz;
    ml.spectral_windows.push_back(std::move(info));
  }
  ml.basis = spec.basis;
  ml.start_time_mjd_s = t_start;
  ml.end_time_mjd_s = t_end;
  ml.history = spec.history;
  ml.history.push_back(
      "Simulated by Apertura: exact visibilities (analytic components; image "
      "pixels by direct DFT or the gridding operator), casacore-convention UVW, seed " +
      std::to_string(spec.seed));
  return ml;
}

// Adds noise and converts one (time, spw) slice of model visibilities to the MS layout.
void fillData(const std::complex<double>* model, std::size_t rows, std::size_t nchan,
              std::uint64_t first_ms_row, double sigma, std::uint64_t seed,
              std::complex<float>* data) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows, 256), [&](const auto& range) {
    for (std::size_t r = range.begin(); r != range.end(); ++r) {
      for (std::size_t c = 0; c < nchan; ++c) {
        const std::complex<double> v = model[r * nchan + c];
        for (std::size_t p = 0; p < 2; ++p) {
          const std::size_t cell = (r * nchan + c) * 2 + p;
          std::complex<double> noisy = v;
          if (sigma > 0.0) {
            const NormalPair n =
                counterNormalPair(seed, (first_ms_row + r) * nchan * 2 + c * 2 + p);
            noisy += std::complex<double>(sigma * n.a, sigma * n.b);
          }
          data[cell] = std::complex<float>(noisy);
        }
      }
    }
  });
}

std::size_t timeSteps(const ObservationSpec& spec) {
  return static_cast<std::size_t>(
      std::max(1.0, std::floor(spec.duration_h * 3600.0 / spec.integration_s + 0.5)));
}

}  // namespace

double startTimeForHourAngle(const ObservationSpec& spec, const ArrayLayout& layout) {
  const double day_start = spec.date_mjd * 86400.0;
  const Vec3 j2000 = unitVector(spec.ra_rad, spec.dec_rad);
  double t = day_start;
  // Two passes: the second uses the apparent RA and sidereal time at the first estimate.
  for (int pass = 0; pass < 2; ++pass) {
    const Vec3 app = multiply(precessionNutationMatrix(julianCenturiesTT(t)), j2000);
    const double ra_app = std::atan2(app[1], app[0]);
    const double last0 = greenwichApparentSiderealTime(day_start, spec.eop) + layout.longitude;
    const double ha0 = last0 - ra_app;
    double turns = (spec.start_hour_angle_h * M_PI / 12.0 - ha0) / (2.0 * M_PI);
    turns -= std::floor(turns);
    t = day_start + turns * kSiderealDayS;
  }
  return t;
}

std::vector<double> noiseSigmas(const ObservationSpec& spec) {
  std::vector<double> out;
  for (const auto& w : spec.spectral_windows) {
    if (spec.sigma_jy > 0.0) {
      out.push_back(spec.sigma_jy);
    } else if (spec.sefd_jy > 0.0) {
      out.push_back(spec.sefd_jy /
                    std::sqrt(2.0 * std::fabs(w.channel_width_hz) * spec.integration_s));
    } else {
      out.push_back(0.0);
    }
  }
  return out;
}

SimulationSummary simulateMeasurementSet(const SkyModel& sky, const ArrayLayout& layout,
                                         const ObservationSpec& spec, const std::string& ms_path,
                                         bool overwrite,
                                         const std::function<void(double)>& progress) {
  return simulateObservation(sky, layout, spec, ms_path, OutputFormat::MeasurementSet, overwrite,
                             progress);
}

std::uint64_t plannedVisibilities(const ObservationSpec& spec, const ArrayLayout& layout) {
  const std::uint64_t nant = layout.antennas.size();
  std::uint64_t channels = 0;
  for (const auto& w : spec.spectral_windows)
    channels += static_cast<std::uint64_t>(std::max(0, w.channels));
  const double steps = spec.integration_s > 0.0 ? static_cast<double>(timeSteps(spec)) : 1.0;
  return static_cast<std::uint64_t>(steps) * (nant * (nant > 0 ? nant - 1 : 0) / 2) * channels;
}

SimulationSummary simulateObservation(const SkyModel& sky, const ArrayLayout& layout,
                                      const ObservationSpec& spec, const std::string& path,
                                      OutputFormat format, bool overwrite,
                                      const std::function<void(double)>& progress) {
  validate(spec, layout, path);
  const std::size_t ntimes = timeSteps(spec);
  const double t0 = startTimeForHourAngle(spec, layout);
  const double t_end = t0 + static_cast<double>(ntimes) * spec.integration_s;
  SimulationSummary summary;
  summary.start_time_mjd_s = t0;
  summary.sigma_jy = noiseSigmas(spec);

  const std::size_t nant = layout.antennas.size();
  std::vector<int> ant1, ant2;
  for (std::size_t i = 0; i < nant; ++i) {
    for (std::size_t j = i + 1; j < nant; ++j) {
      ant1.push_back(static_cast<int>(i));
      ant2.push_back(static_cast<int>(j));
    }
  }
  const std::size_t nbl = ant1.size();
  std::vector<Vec3> positions;
  for (std::size_t i = 0; i < nant; ++i)
    positions.push_back(layout.position(i));
  const UvwFrame frame{spec.ra_rad, spec.dec_rad, layout.centre(), spec.eop};
  const std::size_t nspw = spec.spectral_windows.size();
  std::size_t max_chan = 1;
  for (const auto& w : spec.spectral_windows)
    max_chan = std::max<std::size_t>(max_chan, w.channels);
  // Several integrations per prediction call keep every thread busy on small arrays; an image
  // predicted through the gridding operator pays an FFT per call, so it gets larger calls.
  const std::size_t samples_per_call = sky.fast_image ? (std::size_t(1) << 22) : 262144;
  const std::size_t times_per_chunk = std::max<std::size_t>(1, samples_per_call / (nbl * max_chan));

  SinkOptions sink_options;
  sink_options.overwrite = overwrite;
  sink_options.rows_per_spectral_window = ntimes * nbl;
  sink_options.ut1_minus_utc_s = spec.eop.ut1_minus_utc_s;
  sink_options.tai_minus_utc_s = taiMinusUtc(t0 / 86400.0);
  const auto sink =
      openVisibilitySink(format, path, makeMsLayout(layout, spec, t0, t_end), sink_options);
  std::vector<Vec3> ant_uvw;
  std::vector<double> uvw, times;
  std::vector<std::complex<double>> model;
  MsRowBlock block;
  for (std::size_t k0 = 0; k0 < ntimes; k0 += times_per_chunk) {
    const std::size_t nt = std::min(times_per_chunk, ntimes - k0);
    uvw.assign(nt * nbl * 3, 0.0);
    times.resize(nt);
    for (std::size_t k = 0; k < nt; ++k) {
      times[k] = t0 + (static_cast<double>(k0 + k) + 0.5) * spec.integration_s;
      antennaUvw(times[k], frame, positions, ant_uvw);
      for (std::size_t b = 0; b < nbl; ++b) {
        for (int i = 0; i < 3; ++i) {
          uvw[(k * nbl + b) * 3 + i] = ant_uvw[ant1[b]][i] - ant_uvw[ant2[b]][i];
        }
      }
    }
    // Visibilities follow the imaging convention, whose uvw is the negative of the MS UVW column
    // (see VisibilityChunk::uvw_m): that is what WSClean and CASA image at the right place.
    std::vector<double> imaging_uvw(uvw.size());
    std::transform(uvw.begin(), uvw.end(), imaging_uvw.begin(), [](double x) { return -x; });
    std::vector<std::vector<std::complex<double>>> models(nspw);
    for (std::size_t s = 0; s < nspw; ++s) {
      const auto& w = spec.spectral_windows[s];
      std::vector<double> freqs;
      for (int c = 0; c < w.channels; ++c)
        freqs.push_back(w.first_frequency_hz + c * w.channel_width_hz);
      models[s].resize(nt * nbl * freqs.size());
      predictVisibilities(sky, imaging_uvw.data(), nt * nbl, freqs, models[s].data());
    }
    for (std::size_t k = 0; k < nt; ++k) {
      for (std::size_t s = 0; s < nspw; ++s) {
        const auto nchan = static_cast<std::size_t>(spec.spectral_windows[s].channels);
        const double sigma = summary.sigma_jy[s];
        block.data_desc_id = static_cast<int>(s);
        block.interval_s = spec.integration_s;
        block.time_mjd_s.assign(nbl, times[k]);
        block.antenna1 = ant1;
        block.antenna2 = ant2;
        block.uvw_m.assign(uvw.begin() + k * nbl * 3, uvw.begin() + (k + 1) * nbl * 3);
        block.data.resize(nbl * nchan * 2);
        fillData(models[s].data() + k * nbl * nchan, nbl, nchan, summary.rows, sigma, spec.seed,
                 block.data.data());
        const float sig = sigma > 0.0 ? static_cast<float>(sigma) : 1.0f;
        block.sigma.assign(nbl * 2, sig);
        block.weight.assign(nbl * 2, 1.0f / (sig * sig));
        sink->write(block);
        summary.rows += nbl;
        summary.visibilities += nbl * nchan;
      }
    }
    if (progress)
      progress(static_cast<double>(k0 + nt) / static_cast<double>(ntimes));
  }
  sink->finish();
  return summary;
}

}  // namespace apertura::sim
