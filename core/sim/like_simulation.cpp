#include "core/sim/like_simulation.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "core/io/dataset_format.h"
#include "core/io/fits_image_io.h"
#include "core/io/ms_data_rewrite.h"
#include "core/io/ms_metadata.h"
#include "core/io/replaceable_output.h"
#include "core/io/uvfits_data_rewrite.h"
#include "core/io/uvfits_writer.h"
#include "core/sim/image_predictor.h"
#include "core/sim/image_sky.h"
#include "core/sim/predict.h"
#include "core/sim/simulation_request.h"
#include "core/util/input_error.h"

namespace apertura::sim {
namespace {

// What the simulation needs of the observation, from a Measurement Set or a UVFITS file.
struct Observation {
  bool uvfits = false;
  std::vector<FieldInfo> fields;
  int first_field = 0;      // the lowest field of the data (what imaging picks by default)
  double weight_sum = 0.0;  // its Stokes I weight sum
};

Observation readObservation(const std::string& path) {
  Observation o;
  o.uvfits = detectDatasetFormat(path) == DatasetFormat::kUvfits;
  if (o.uvfits) {
    UvfitsObservation u = readUvfitsObservation(path);
    o.fields = std::move(u.fields);
    o.first_field = u.first_field;
    o.weight_sum = u.weight_sum;
  } else {
    o.fields = readMsMetadata(path).fields;
    o.first_field = firstFieldWithData(path);
    o.weight_sum = stokesIWeightSum(path, o.first_field);
  }
  return o;
}

const FieldInfo& fieldOf(const Observation& o, int id, const std::string& path) {
  for (const FieldInfo& f : o.fields)
    if (f.id == id)
      return f;
  throw InputError(path, o.uvfits
                             ? "field " + std::to_string(id) +
                                   " (a group's SOURCE) has no "
                                   "position in the header or the AIPS SU table"
                             : "FIELD_ID " + std::to_string(id) + " is not a row of table FIELD");
}

void checkRequest(const LikeSimulationRequest& r) {
  if (r.like.empty())
    throw InputError("--like", "give the Measurement Set or UVFITS file whose coverage to use");
  if (r.image.empty())
    throw InputError("--image", "give the sky as a FITS image in Jy/pixel");
  if (r.output.empty())
    throw InputError("--output", "give the copy to write (of the same format as --like)");
  if (r.snr && !(std::isfinite(*r.snr) && *r.snr > 0.0))
    throw InputError("--snr", "must be a positive number");
  if (r.snr && !r.noise)
    throw InputError("--snr", "cannot be combined with --no-noise");
  if (r.predict != "auto" && r.predict != "exact" && r.predict != "fast")
    throw InputError("--predict", "'" + r.predict + "' is not one of exact, fast, auto");
}

// The sky as seen from each field's phase centre, made on first use.
class FieldSkies {
 public:
  FieldSkies(const FitsImage& image, const Observation& observation, const LikeSimulationRequest& r)
      : image_(image), observation_(observation), r_(r) {
    for (double v : image.pixels)
      pixels_ += v != 0.0 && !std::isnan(v) ? 1 : 0;
  }

  const SkyModel& at(int field) {
    auto it = skies_.find(field);
    if (it != skies_.end())
      return it->second;
    const FieldInfo& f = fieldOf(observation_, field, r_.like);
    SkyModel sky;
    const std::string why = FastImageModel::unsupportedReason(image_, f.ra_rad, f.dec_rad);
    if (r_.predict == "fast" && !why.empty())
      throw InputError(r_.image, "--predict fast: " + why + " (use --predict exact)");
    const bool fast =
        r_.predict == "fast" || (r_.predict == "auto" && why.empty() && pixels_ >= kFastMinPixels);
    if (fast) {
      sky.fast_image = std::make_shared<FastImageModel>(image_, f.ra_rad, f.dec_rad);
      how_ = "gridding operator (" + std::to_string(pixels_) + " pixels)";
    } else {
      sky.points = imageToPointSources(image_, f.ra_rad, f.dec_rad);
      how_ = "exact DFT (" + std::to_string(sky.points.size()) + " pixels)";
    }
    return skies_.emplace(field, std::move(sky)).first->second;
  }

  const std::string& how() const { return how_; }

 private:
  const FitsImage& image_;
  const Observation& observation_;
  const LikeSimulationRequest& r_;
  std::size_t pixels_ = 0;
  std::map<int, SkyModel> skies_;
  std::string how_;
};

}  // namespace

LikeSimulationOutcome simulateLike(const LikeSimulationRequest& r) {
  checkRequest(r);
  requireOutputApartFromInputs(r.output, {{"--like", r.like}, {"--image", r.image}});
  FitsImage image = readFitsImage(r.image);
  requireJyPerPixel(image);
  const Observation observation = readObservation(r.like);
  if (observation.uvfits != hasUvfitsExtension(r.output))
    throw InputError("--output", observation.uvfits
                                     ? "the copy of a UVFITS file is a UVFITS file: give a "
                                       "name ending in .uvfits, .uvf or .fits"
                                     : "the copy of a Measurement Set is a Measurement Set: give "
                                       "a name that does not end in .uvfits, .uvf or .fits");
  const int first_field = observation.first_field;
  if (r.at_phase_centre) {
    const FieldInfo& f = fieldOf(observation, first_field, r.like);
    image.ref_ra_rad = f.ra_rad;
    image.ref_dec_rad = f.dec_rad;
  }
  LikeSimulationOutcome out;
  for (double v : image.pixels)
    out.total_flux_jy += std::isnan(v) ? 0.0 : v;

  const double weight_sum = observation.weight_sum;
  if (!(weight_sum > 0.0))
    throw InputError(r.like, "no unflagged cross-correlation sample has a positive weight");
  if (r.snr) {
    if (!(out.total_flux_jy > 0.0))
      throw InputError(r.image, "--snr needs a sky with a positive total flux");
    // (F / snr)^2 = 1 / (scale * W): the scaled weights give that natural-weighted image noise.
    const double noise = out.total_flux_jy / *r.snr;
    out.weight_scale = 1.0 / (noise * noise * weight_sum);
  }
  out.image_noise_jy = 1.0 / std::sqrt(out.weight_scale * weight_sum);

  FieldSkies skies(image, observation, r);
  DataRewriteRequest w;
  w.input_path = r.like;
  w.output_path = r.output;
  w.overwrite = r.overwrite;
  w.noise = r.noise;
  w.weight_scale = out.weight_scale;
  w.seed = r.seed;
  w.sky = [&](int field, const std::vector<double>& freqs, const double* uvw, std::size_t rows,
              std::complex<double>* values) {
    std::fill(values, values + rows * freqs.size(), std::complex<double>(0.0, 0.0));
    predictVisibilities(skies.at(field), uvw, rows, freqs, values);
  };
  const DataRewriteSummary summary = observation.uvfits ? rewriteUvfitsData(w) : rewriteMsData(w);
  out.rows = summary.rows;
  out.samples = summary.samples;
  out.corrected_data = summary.corrected_data;
  out.prediction = skies.how();
  return out;
}

}  // namespace apertura::sim
