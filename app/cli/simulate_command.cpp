#include "app/cli/simulate_command.h"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "core/sim/like_simulation.h"
#include "core/util/input_error.h"

namespace apertura::cli {

CLI::App* addSimulateCommand(CLI::App& app, SimulateOptions& o) {
  auto* cmd = app.add_subcommand(
      "simulate",
      "Simulate an observation of a sky model and write a Measurement Set or a UVFITS file");
  cmd->add_option("--point", o.points, "Point source FLUX_JY,DRA_ARCSEC,DDEC_ARCSEC[,ALPHA]");
  cmd->add_option("--gaussian", o.gaussians,
                  "Gaussian FLUX,DRA,DDEC,MAJ_ARCSEC,MIN_ARCSEC,PA_DEG[,ALPHA]");
  cmd->add_option("--disk", o.disks,
                  "Inclined ring/disk FLUX,DRA,DDEC,R_IN,GAP_IN,GAP_OUT,R_OUT (arcsec),INC_DEG,"
                  "PA_DEG[,GAP_DEPTH[,POWER_INDEX]]");
  cmd->add_option("--sky-fits", o.sky_fits, "FITS image in Jy/pixel (with its WCS)");
  cmd->add_option("--predict", o.predict,
                  "How --sky-fits is predicted: exact (direct DFT), fast (gridding operator) "
                  "or auto")
      ->check(CLI::IsMember({"exact", "fast", "auto"}))
      ->capture_default_str();
  cmd->add_option("--ref-freq", o.ref_freq_hz,
                  "Reference frequency of fluxes and spectral "
                  "indices (Hz; default: first channel)");
  cmd->add_option("--array", o.array,
                  "alma-compact | vla-y[:ARM_M] | random:MAXBL_M:N:DISH_M | "
                  "ms:PATH")
      ->capture_default_str();
  cmd->add_option("--ra", o.ra, "Phase centre RA (degrees or hh:mm:ss)")->capture_default_str();
  cmd->add_option("--dec", o.dec, "Phase centre Dec (degrees or dd:mm:ss)")->capture_default_str();
  cmd->add_option("--date-mjd", o.date_mjd, "UTC date (MJD) of the observation")
      ->capture_default_str();
  cmd->add_option("--hours", o.hours, "Duration (hours)")->capture_default_str();
  cmd->add_option("--start-ha", o.start_ha_h, "Hour angle at the start (hours)")
      ->capture_default_str();
  cmd->add_option("--integration", o.integration_s, "Integration time (s)")->capture_default_str();
  cmd->add_option("--freq", o.freq_hz, "First channel frequency (Hz)")->capture_default_str();
  cmd->add_option("--nchan", o.nchan, "Channels")->capture_default_str();
  cmd->add_option("--chan-width", o.chan_width_hz, "Channel width (Hz)")->capture_default_str();
  cmd->add_option("--spw", o.spws,
                  "Spectral window FIRST_FREQ_HZ,NCHAN,CHAN_WIDTH_HZ "
                  "(repeatable; replaces --freq/--nchan/--chan-width)");
  cmd->add_option("--sigma", o.sigma_jy, "Noise per visibility real/imaginary part (Jy)");
  cmd->add_option("--sefd", o.sefd_jy, "System equivalent flux density (Jy) for the noise");
  cmd->add_option("--feeds", o.feeds, "linear (XX YY) or circular (RR LL)")
      ->check(CLI::IsMember({"linear", "circular"}))
      ->capture_default_str();
  cmd->add_option("--seed", o.seed, "Noise and layout seed")->capture_default_str();
  cmd->add_option("-o,--output", o.output,
                  "Output: a Measurement Set, or UVFITS when the name ends in .uvfits, .uvf, "
                  ".fits or .fit")
      ->required();
  cmd->add_flag("--overwrite", o.overwrite,
                "Replace an existing output of the same kind (a Measurement Set, or a FITS "
                "file for .uvfits); any other file or folder of that name is refused");
  cmd->add_option("--like", o.like.like,
                  "Use the coverage of this Measurement Set (or UVFITS file): its rows, uvw, "
                  "flags, weights and subtables (groups, random parameters and tables), with the "
                  "data replaced by the --image sky plus noise; -o is of the same format");
  cmd->add_option("--image", o.like.image, "With --like: the sky, a FITS image in Jy/pixel");
  cmd->add_flag("--noise-from-weights", o.noise_from_weights,
                "With --like: noise of sigma 1/sqrt(weight) per correlation (the default)");
  cmd->add_option("--snr", o.like.snr,
                  "With --like: scale the weights so that the total flux over the "
                  "natural-weighted image noise (of the first field with data) is this, and draw "
                  "the noise from them");
  cmd->add_flag("--no-noise", o.no_noise, "With --like: the sky's visibilities alone");
  cmd->add_flag("--at-phase-centre", o.like.at_phase_centre,
                "With --like: put the image's reference point on the phase centre of the first "
                "field with data");
  return cmd;
}

namespace {

int runLike(const SimulateOptions& o) {
  const bool new_observation = !o.points.empty() || !o.gaussians.empty() || !o.disks.empty() ||
                               !o.sky_fits.empty() || !o.spws.empty();
  if (new_observation)
    throw InputError("--like",
                     "takes the sky from --image alone (no --point, --gaussian, --disk, "
                     "--sky-fits or --spw)");
  if (o.noise_from_weights && (o.no_noise || o.like.snr))
    throw InputError("--noise-from-weights", "cannot be combined with --no-noise or --snr");
  sim::LikeSimulationRequest r = o.like;
  r.noise = !o.no_noise;
  r.predict = o.predict;
  r.seed = o.seed;
  r.output = o.output;
  r.overwrite = o.overwrite;
  const auto t0 = std::chrono::steady_clock::now();
  const sim::LikeSimulationOutcome out = sim::simulateLike(r);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("Wrote %s like %s: %llu rows, %llu row-channels, sky %.6g Jy by %s, %.2f s\n",
              o.output.c_str(), o.like.like.c_str(), static_cast<unsigned long long>(out.rows),
              static_cast<unsigned long long>(out.samples), out.total_flux_jy,
              out.prediction.c_str(), seconds);
  if (r.noise)
    std::printf("  noise from the weights%s: natural-weighted image noise %.6g Jy/beam\n",
                out.weight_scale != 1.0 ? " (scaled for --snr)" : "", out.image_noise_jy);
  else
    std::printf("  no noise\n");
  if (out.corrected_data)
    std::printf("  CORRECTED_DATA holds the same values as DATA\n");
  return 0;
}

}  // namespace

int runSimulate(const SimulateOptions& o) {
  try {
    if (!o.like.like.empty())
      return runLike(o);
    if (!o.like.image.empty() || o.like.snr || o.no_noise || o.noise_from_weights ||
        o.like.at_phase_centre)
      throw InputError("--image",
                       "--image, --snr, --no-noise, --noise-from-weights and "
                       "--at-phase-centre need --like");
    const auto t0 = std::chrono::steady_clock::now();
    const sim::SimulationOutcome outcome = sim::runSimulation(o);
    const sim::SimulationSummary& s = outcome.summary;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf(
        "Wrote %s (%s): %llu rows, %llu visibilities x 2 correlations, %zu antennas (%s), "
        "%.2f s\n",
        o.output.c_str(), sim::outputFormatName(outcome.format),
        static_cast<unsigned long long>(s.rows), static_cast<unsigned long long>(s.visibilities),
        outcome.antennas, outcome.telescope.c_str(), seconds);
    if (!outcome.image_prediction.empty())
      std::printf("  sky image predicted by %s\n", outcome.image_prediction.c_str());
    for (std::size_t i = 0; i < s.sigma_jy.size(); ++i) {
      std::printf("  spw %zu: noise sigma %.6g Jy per real/imaginary part\n", i, s.sigma_jy[i]);
    }
    return 0;
  } catch (const InputError& e) {
    std::cerr << "apertura-cli simulate: error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace apertura::cli
