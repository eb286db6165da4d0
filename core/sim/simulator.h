#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/io/ms_writer.h"
#include "core/sim/array_layout.h"
#include "core/sim/sky_model.h"
#include "core/sim/uvw.h"
#include "core/sim/visibility_sink.h"

namespace apertura::sim {

struct SpectralWindowSpec {
  double first_frequency_hz = 100e9;
  double channel_width_hz = 10e6;
  int channels = 1;
};

struct ObservationSpec {
  std::string source_name = "SIM";
  double ra_rad = 0.0;  // J2000 phase centre
  double dec_rad = 0.0;
  double date_mjd = 60390.0;         // UTC day on which the observation starts (2024-03-21)
  double start_hour_angle_h = -1.0;  // hour angle of the phase centre at the start
  double duration_h = 2.0;
  double integration_s = 60.0;
  std::vector<SpectralWindowSpec> spectral_windows{SpectralWindowSpec{}};
  CorrelationBasis basis = CorrelationBasis::Linear;
  // Thermal noise per correlation, in each of the real and imaginary parts: sigma_jy when > 0,
  // else SEFD / sqrt(2 * channel width * integration) when sefd_jy > 0, else none.
  double sigma_jy = 0.0;
  double sefd_jy = 0.0;
  std::uint64_t seed = 1;
  EarthOrientation eop;
  std::vector<std::string> history;  // provenance lines for the MS HISTORY table
};

struct SimulationSummary {
  std::uint64_t rows = 0;
  std::uint64_t visibilities = 0;  // rows x channels (each with 2 correlations)
  std::vector<double> sigma_jy;    // per spectral window (0: noiseless)
  double start_time_mjd_s = 0.0;
};

// UTC (MJD seconds) on spec.date_mjd at which the phase centre has the start hour angle.
double startTimeForHourAngle(const ObservationSpec& spec, const ArrayLayout& layout);

// Per-spectral-window noise sigma of a visibility's real (or imaginary) part.
std::vector<double> noiseSigmas(const ObservationSpec& spec);

// Simulates the observation and writes a Measurement Set at ms_path: rows ordered by time, then
// spectral window, then baseline (ANTENNA1 < ANTENNA2, no autocorrelations); DATA holds the exact
// model (see predict.h) plus Gaussian noise, identical in XX and YY (RR and LL). UVW follows the
// CASA convention UVW = X(antenna1) - X(antenna2) projected as in uvw.h. The MS is written to a
// temporary sibling and renamed, so it appears complete or not at all; an existing ms_path is
// replaced only when overwrite is set (InputError otherwise).
SimulationSummary simulateMeasurementSet(const SkyModel& sky, const ArrayLayout& layout,
                                         const ObservationSpec& spec, const std::string& ms_path,
                                         bool overwrite,
                                         const std::function<void(double)>& progress = {});

// The same simulation written as `format`: a Measurement Set as above, or a UVFITS file (see
// uvfits_writer.h: one random group per row with every spectral window on the IF axis, so the
// spectral windows need equal channel counts and widths). Same atomicity and overwrite rules.
SimulationSummary simulateObservation(const SkyModel& sky, const ArrayLayout& layout,
                                      const ObservationSpec& spec, const std::string& path,
                                      OutputFormat format, bool overwrite,
                                      const std::function<void(double)>& progress = {});

// Rows x channels of all spectral windows the observation will have (before it is simulated).
std::uint64_t plannedVisibilities(const ObservationSpec& spec, const ArrayLayout& layout);

}  // namespace apertura::sim
