#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace apertura {

// The unpolarised (Stokes I) sky for `rows` rows of one field and one spectral window: uvw in
// metres in the imaging convention (VisibilityChunk::uvw_m: the negated UVW column), 3 per row;
// writes out[row * nchan + chan] for every channel of `frequencies_hz`.
using SkyVisibilities =
    std::function<void(int field_id, const std::vector<double>& frequencies_hz, const double* uvw_m,
                       std::size_t rows, std::complex<double>* out)>;

struct DataRewriteRequest {
  std::string input_path;   // the observation whose rows, uvw, flags and subtables are kept
  std::string output_path;  // the new Measurement Set (a copy of the input)
  bool overwrite = false;
  SkyVisibilities sky;
  // Noise drawn from the weights: each correlation of each sample gets independent Gaussian
  // noise of sigma = 1/sqrt(weight) on its real and imaginary parts (none where the weight is 0).
  bool noise = true;
  // The copy's weights (WEIGHT, WEIGHT_SPECTRUM; SIGMA and SIGMA_SPECTRUM as 1/sqrt) are the
  // input's times this; the noise follows the new weights.
  double weight_scale = 1.0;
  std::uint64_t seed = 1;
};

struct DataRewriteSummary {
  std::uint64_t rows = 0;
  std::uint64_t samples = 0;    // rows x channels
  bool corrected_data = false;  // CORRECTED_DATA was present and got the same values as DATA
};

// Writes a copy of the input in which DATA (and CORRECTED_DATA, when present, so that either
// column images the same) holds the sky's visibilities plus noise: parallel hands (XX YY, RR LL)
// the Stokes I value, cross hands zero, each with its own noise. Every other column and subtable
// is the input's (FLAG included); MODEL_DATA is left as it was. Rows of any field, spectral window
// and baseline (autocorrelations too) are rewritten, so nothing of the observed sky remains in
// the data columns. Throws InputError naming the file, the column and the problem.
DataRewriteSummary rewriteMsData(const DataRewriteRequest& request);

// Sum of the Stokes I weights of the input's unflagged cross-correlation samples of field
// `field_id` (every field when negative): per sample 4 / (1/w_a + 1/w_b) for the two parallel
// hands (w of a single one alone). 1/sqrt of it is the natural-weighted image noise (Jy/beam)
// of that field when the weights are absolute.
double stokesIWeightSum(const std::string& ms_path, int field_id = -1);

// The lowest FIELD_ID of the input's MAIN rows (the field an imaging run picks by default).
int firstFieldWithData(const std::string& ms_path);

}  // namespace apertura
