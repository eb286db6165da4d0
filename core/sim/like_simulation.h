#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace apertura::sim {

// A known sky on a real observation's coverage (`apertura-cli simulate --like`): the rows, uvw,
// flags, weights and subtables of an existing Measurement Set (or the groups, random parameters
// and tables of a UVFITS file), with its data replaced by the visibilities of a sky image plus
// noise drawn from the weights.
struct LikeSimulationRequest {
  std::string like;   // the observation: a Measurement Set or a UVFITS file
  std::string image;  // the sky: a FITS image in Jy/pixel with its WCS
  // Put the image's reference point on the phase centre of the first field with data instead of
  // where its WCS says (for synthetic skies made without knowing the field).
  bool at_phase_centre = false;
  // Noise: from the observation's weights as they are (absolute weights assumed), or, with snr,
  // from the weights scaled so that the sky's total flux over the natural-weighted image noise
  // of the first field with data (1/sqrt of its Stokes I weight sum: what an image of that field
  // reaches) is snr; the copy's weights are scaled the same way.
  std::optional<double> snr;
  bool noise = true;             // false: no noise at all (the weights are kept)
  std::string predict = "auto";  // exact, fast or auto, as for `simulate --sky-fits`
  std::uint64_t seed = 1;
  std::string output;  // a new Measurement Set, or UVFITS file for a UVFITS observation
  bool overwrite = false;
};

struct LikeSimulationOutcome {
  std::uint64_t rows = 0;
  std::uint64_t samples = 0;
  double total_flux_jy = 0.0;
  double image_noise_jy = 0.0;  // natural-weighted, first field with data, output's weights
  double weight_scale = 1.0;
  std::string prediction;  // how the image was predicted
  bool corrected_data = false;
};

// Throws InputError naming the file or option at fault.
LikeSimulationOutcome simulateLike(const LikeSimulationRequest& request);

}  // namespace apertura::sim
