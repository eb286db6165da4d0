#pragma once

#include <string>

#include "core/sim/simulator.h"
#include "core/sim/sky_model.h"

namespace apertura::testing {

// The observation the pipeline tests simulate unless they say otherwise: phase centre at
// RA 0, dec -0.5 rad, 1 h of 120 s integrations, one 230 GHz window of one 100 MHz channel, noise
// sigma 0.05 Jy, seed 1. Tests change the fields that differ (spectral windows, seed, ...).
sim::ObservationSpec almaTestObservation();

// A 230 GHz sky of a 1 Jy point (0.6" east, 0.3" north) and a 0.5 Jy elliptical Gaussian
// (0.5" x 0.3" FWHM, position angle 0.5 rad; 0.4" west, 0.2" north): compact but resolved, so a
// short optimisation keeps improving the fit.
sim::SkyModel pointAndGaussianSky();

// Simulates `spec` of `sky` as seen by the ALMA compact layout into a new Measurement Set at
// `path` (an existing one is an error, as in simulateMeasurementSet); returns `path`.
std::string simulateAlmaCompactMs(const std::string& path, const sim::SkyModel& sky,
                                  const sim::ObservationSpec& spec = almaTestObservation());

}  // namespace apertura::testing
