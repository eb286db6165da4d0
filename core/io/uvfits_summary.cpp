#include "core/io/uvfits_summary.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "core/io/uvfits_handle.h"
#include "core/io/uvfits_layout.h"

namespace apertura {
namespace {

constexpr std::size_t kUvSampleMax = 20000;

void describeLayout(const UvfitsLayout& L, DatasetSummary& s) {
  s.telescope = L.telescope;
  s.rows = static_cast<std::uint64_t>(L.gcount);
  s.antennas_listed = L.antennas_listed;
  s.antenna_names = L.antenna_names;
  for (const auto& p : L.params)
    s.columns.push_back(p.type);
  s.fields = L.fields();
  PolarizationInfo pol;
  for (auto c : L.correlations)
    pol.correlations.push_back(correlationName(c));
  s.polarizations.push_back(pol);
}

}  // namespace

DatasetSummary summarizeUvfits(const std::string& path) {
  requireFitsFile(path);
  UvfitsHandle file(path);
  UvfitsLayout L = readUvfitsLayout(file);
  DatasetSummary s;
  s.path = path;
  s.format = "UVFITS";
  describeLayout(L, s);

  std::vector<double> raw(static_cast<std::size_t>(L.pcount));
  std::vector<float> data(L.group_elements);
  std::set<int> antennas, freqsel;
  const std::size_t stride =
      std::max<std::size_t>(1, static_cast<std::size_t>(L.gcount) / kUvSampleMax);
  double tmin = std::numeric_limits<double>::infinity(), tmax = -tmin;
  double bmin = std::numeric_limits<double>::infinity(), bmax = 0.0;
  const std::size_t cells = L.nif * L.nchan * L.nstokes;
  for (long long g = 0; g < L.gcount; ++g) {
    int status = 0, anynul = 0;
    fits_read_grppar_dbl(file.get(), static_cast<long>(g + 1), 1, L.pcount, raw.data(), &status);
    fits_read_img_flt(file.get(), static_cast<long>(g + 1), 1,
                      static_cast<LONGLONG>(L.group_elements), 0.0f, data.data(), &anynul, &status);
    file.check(status, "cannot read group " + std::to_string(g + 1));
    const GroupParams p = decodeGroupParams(L, raw.data(), g);
    freqsel.insert(p.freqsel);
    antennas.insert(p.antenna1);
    antennas.insert(p.antenna2);
    tmin = std::min(tmin, p.time_mjd_s);
    tmax = std::max(tmax, p.time_mjd_s);
    std::uint64_t flagged = 0;
    for (std::size_t i = 0; i < L.nif; ++i) {
      for (std::size_t c = 0; c < L.nchan; ++c) {
        for (std::size_t k = 0; k < L.nstokes; ++k) {
          const float w = L.ncomplex == 3 ? data[L.offset(2, k, c, i)] : 1.0f;
          if (!(w > 0.0f) || !std::isfinite(w))
            ++flagged;
        }
      }
    }
    s.flag_cells_total += cells;
    s.flag_cells_flagged += flagged;
    if (p.antenna1 == p.antenna2) {
      ++s.autocorrelation_rows;
      continue;
    }
    s.unflagged_visibilities += cells - flagged;
    const double len = std::sqrt(p.u_m * p.u_m + p.v_m * p.v_m + p.w_m * p.w_m);
    if (std::isfinite(len)) {
      bmin = std::min(bmin, len);
      bmax = std::max(bmax, len);
    }
    if (static_cast<std::size_t>(g) % stride == 0 && s.uv_sample_m.size() < 2 * kUvSampleMax) {
      s.uv_sample_m.push_back(static_cast<float>(p.u_m));
      s.uv_sample_m.push_back(static_cast<float>(p.v_m));
    }
  }
  // The frequencies of the setup the groups use. Several setups (which the reader refuses, with
  // the reason) or an undefined one are refused here too, before anyone images the file.
  L.selectFrequencySetup(freqsel);
  s.spectral_windows = L.spectralWindows();
  s.antennas_used = static_cast<int>(antennas.size());
  if (L.gcount > 0) {
    s.time_start_mjd_s = tmin;
    s.time_end_mjd_s = tmax;
  }
  if (bmax > 0.0) {
    s.min_baseline_m = bmin;
    s.max_baseline_m = bmax;
  }
  for (int a : antennas) {
    if (a >= 0 && static_cast<std::size_t>(a) < L.dish_diameters_m.size()) {
      const double d = L.dish_diameters_m[static_cast<std::size_t>(a)];
      if (d > 0.0 && (s.dish_diameter_m == 0.0 || d < s.dish_diameter_m))
        s.dish_diameter_m = d;
    }
  }
  deriveImagingSuggestions(s);
  return s;
}

}  // namespace apertura
