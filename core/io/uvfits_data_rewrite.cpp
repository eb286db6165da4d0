#include "core/io/uvfits_data_rewrite.h"

#include <fitsio.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <vector>

#include "core/engine/interrupt.h"
#include "core/io/correlation.h"
#include "core/io/ms_copy.h"
#include "core/io/uvfits_handle.h"
#include "core/io/uvfits_layout.h"
#include "core/util/input_error.h"
#include "core/util/random.h"

namespace apertura {
namespace {

constexpr std::size_t kBlockGroups = 4096;

void toPrimary(UvfitsHandle& file) {
  int status = 0;
  fits_movabs_hdu(file.get(), 1, nullptr, &status);
  file.check(status, "cannot return to the primary header");
}

// Every group's decoded parameters; the FQ row their FREQSEL values name becomes current.
std::vector<GroupParams> readAllParams(UvfitsHandle& file, UvfitsLayout& layout) {
  toPrimary(file);
  std::vector<GroupParams> params(static_cast<std::size_t>(layout.gcount));
  std::vector<double> raw(static_cast<std::size_t>(layout.pcount));
  std::set<int> freqsel;
  for (long long g = 0; g < layout.gcount; ++g) {
    int status = 0;
    fits_read_grppar_dbl(file.get(), static_cast<long>(g + 1), 1, layout.pcount, raw.data(),
                         &status);
    file.check(status, "cannot read the random parameters of group " + std::to_string(g + 1));
    params[std::size_t(g)] = decodeGroupParams(layout, raw.data(), g);
    freqsel.insert(params[std::size_t(g)].freqsel);
  }
  layout.selectFrequencySetup(freqsel);
  return params;
}

void readGroup(UvfitsHandle& file, const UvfitsLayout& layout, long long g, double* data) {
  int status = 0, anynul = 0;
  fits_read_img_dbl(file.get(), static_cast<long>(g + 1), 1,
                    static_cast<LONGLONG>(layout.group_elements), 0.0, data, &anynul, &status);
  file.check(status, "cannot read the data of group " + std::to_string(g + 1));
}

double weightOf(const UvfitsLayout& layout, const double* data, std::size_t k, std::size_t c,
                std::size_t i) {
  return layout.ncomplex >= 3 ? data[layout.offset(2, k, c, i)] : 1.0;
}

class GroupWriter {
 public:
  GroupWriter(const DataRewriteRequest& r, const std::string& path)
      : r_(r), file_(path, true), layout_(readUvfitsLayout(file_)) {}

  DataRewriteSummary run() {
    if (layout_.bitpix > 0)
      throw InputError(file_.path(), "holds integer data (BITPIX " +
                                         std::to_string(layout_.bitpix) +
                                         "); simulated values could overflow its BSCALE and "
                                         "BZERO, so only floating-point data (BITPIX -32 or "
                                         "-64) are rewritten");
    if (r_.weight_scale != 1.0 && layout_.ncomplex < 3)
      throw InputError(file_.path(), "has no weights on its COMPLEX axis (length " +
                                         std::to_string(layout_.ncomplex) +
                                         ", not 3) to scale for --snr");
    params_ = readAllParams(file_, layout_);
    for (std::size_t i = 0; i < layout_.nif; ++i)
      frequencies_.push_back(layout_.channelFrequencies(i));
    for (std::size_t start = 0; start < params_.size(); start += kBlockGroups)
      writeBlock(start, std::min(params_.size(), start + kBlockGroups));
    updateChecksum();
    file_.close();
    summary_.rows = params_.size();
    summary_.samples = params_.size() * layout_.nif * layout_.nchan;
    return summary_;
  }

 private:
  // The sky's visibilities of groups [begin, end), [(group - begin) * nif + IF][channel], each
  // field's groups predicted together.
  std::vector<std::complex<double>> predict(std::size_t begin, std::size_t end) {
    const std::size_t nif = layout_.nif, nchan = layout_.nchan;
    std::vector<std::complex<double>> model((end - begin) * nif * nchan);
    std::map<int, std::vector<std::size_t>> by_field;
    for (std::size_t g = begin; g < end; ++g)
      by_field[layout_.fieldIndex(params_[g].source)].push_back(g);
    for (const auto& [field, groups] : by_field) {
      // The imaging convention is the negative of the file's UVW (VisibilityChunk::uvw_m).
      std::vector<double> uvw(3 * groups.size());
      for (std::size_t j = 0; j < groups.size(); ++j) {
        const GroupParams& p = params_[groups[j]];
        uvw[3 * j] = -p.u_m;
        uvw[3 * j + 1] = -p.v_m;
        uvw[3 * j + 2] = -p.w_m;
      }
      std::vector<std::complex<double>> out(groups.size() * nchan);
      for (std::size_t i = 0; i < nif; ++i) {
        std::fill(out.begin(), out.end(), std::complex<double>(0.0, 0.0));
        r_.sky(field, frequencies_[i], uvw.data(), groups.size(), out.data());
        for (std::size_t j = 0; j < groups.size(); ++j)
          std::copy_n(&out[j * nchan], nchan, &model[((groups[j] - begin) * nif + i) * nchan]);
      }
    }
    return model;
  }

  void writeBlock(std::size_t begin, std::size_t end) {
    const std::vector<std::complex<double>> model = predict(begin, end);
    const std::size_t ge = layout_.group_elements, nif = layout_.nif, nchan = layout_.nchan;
    std::vector<double> data(ge);
    for (std::size_t g = begin; g < end; ++g) {
      engine::throwIfInterrupted();
      readGroup(file_, layout_, static_cast<long long>(g), data.data());
      for (std::size_t i = 0; i < nif; ++i) {
        for (std::size_t c = 0; c < nchan; ++c) {
          const std::complex<double> sky = model[((g - begin) * nif + i) * nchan + c];
          for (std::size_t k = 0; k < layout_.nstokes; ++k)
            setSample(data.data(), g, k, c, i, isParallelHand(layout_.correlations[k]) ? sky : 0.0);
        }
      }
      int status = 0;
      fits_write_img_dbl(file_.get(), static_cast<long>(g + 1), 1, static_cast<LONGLONG>(ge),
                         data.data(), &status);
      file_.check(status, "cannot write the data of group " + std::to_string(g + 1));
    }
  }

  void setSample(double* data, std::size_t g, std::size_t k, std::size_t c, std::size_t i,
                 std::complex<double> v) {
    double w = weightOf(layout_, data, k, c, i);
    if (layout_.ncomplex >= 3) {
      w *= r_.weight_scale;  // a negative (flagged) weight stays negative
      data[layout_.offset(2, k, c, i)] = w;
    }
    if (r_.noise && w > 0.0 && std::isfinite(w)) {
      const std::uint64_t sample = (k * layout_.nif + i) * layout_.nchan + c;
      const NormalPair z = counterNormalPair(r_.seed, (std::uint64_t(g) << 24) | sample);
      const double sigma = 1.0 / std::sqrt(w);
      v += std::complex<double>(sigma * z.a, sigma * z.b);
    }
    data[layout_.offset(0, k, c, i)] = v.real();
    data[layout_.offset(1, k, c, i)] = v.imag();
  }

  // A primary header that carries CHECKSUM or DATASUM (FITS 4.0 appendix J) gets them recomputed
  // for the new data; otherwise the header is left as it was.
  void updateChecksum() {
    for (const char* key : {"CHECKSUM", "DATASUM"}) {
      char value[FLEN_VALUE] = {0};
      int status = 0;
      fits_read_key_str(file_.get(), key, value, nullptr, &status);
      if (status == 0) {
        fits_write_chksum(file_.get(), &status);
        file_.check(status, "cannot update CHECKSUM and DATASUM");
        return;
      }
      fits_clear_errmsg();
    }
  }

  const DataRewriteRequest& r_;
  UvfitsHandle file_;
  UvfitsLayout layout_;
  std::vector<GroupParams> params_;
  std::vector<std::vector<double>> frequencies_;  // per IF
  DataRewriteSummary summary_;
};

double weightSumOf(UvfitsHandle& file, const UvfitsLayout& layout,
                   const std::vector<GroupParams>& params, int field_id) {
  std::vector<std::size_t> hands;
  for (std::size_t k = 0; k < layout.nstokes; ++k)
    if (isParallelHand(layout.correlations[k]))
      hands.push_back(k);
  std::vector<double> data(layout.group_elements);
  double sum = 0.0;
  for (std::size_t g = 0; g < params.size(); ++g) {
    const GroupParams& p = params[g];
    if (p.antenna1 == p.antenna2 || (field_id >= 0 && layout.fieldIndex(p.source) != field_id))
      continue;
    readGroup(file, layout, static_cast<long long>(g), data.data());
    for (std::size_t i = 0; i < layout.nif; ++i) {
      for (std::size_t c = 0; c < layout.nchan; ++c) {
        const auto w = [&](std::size_t k) { return weightOf(layout, data.data(), k, c, i); };
        const auto usable = [&](std::size_t k) { return w(k) > 0.0 && std::isfinite(w(k)); };
        if (hands.size() == 1 && usable(hands[0]))
          sum += w(hands[0]);
        else if (hands.size() >= 2 && usable(hands[0]) && usable(hands[1]))
          sum += 4.0 / (1.0 / w(hands[0]) + 1.0 / w(hands[1]));
      }
    }
  }
  return sum;
}

}  // namespace

DataRewriteSummary rewriteUvfitsData(const DataRewriteRequest& r) {
  if (!r.sky)
    throw InputError(r.output_path, "no sky model to predict the data from");
  if (!(r.weight_scale > 0.0) || !std::isfinite(r.weight_scale))
    throw InputError(r.output_path, "the weight scale must be a positive number");
  requireFitsFile(r.input_path);
  DataRewriteSummary summary;
  writeIntoCopy(r.input_path, r.output_path, r.overwrite, "with simulated data",
                [&](const std::string& copy) { summary = GroupWriter(r, copy).run(); });
  return summary;
}

double uvfitsStokesIWeightSum(const std::string& path, int field_id) {
  requireFitsFile(path);
  UvfitsHandle file(path);
  UvfitsLayout layout = readUvfitsLayout(file);
  const std::vector<GroupParams> params = readAllParams(file, layout);
  return weightSumOf(file, layout, params, field_id);
}

UvfitsObservation readUvfitsObservation(const std::string& path) {
  requireFitsFile(path);
  UvfitsHandle file(path);
  UvfitsLayout layout = readUvfitsLayout(file);
  const std::vector<GroupParams> params = readAllParams(file, layout);
  int first = std::numeric_limits<int>::max(), last = 0;
  for (const GroupParams& p : params) {
    const int field = layout.fieldIndex(p.source);
    last = std::max(last, field);
    if (p.antenna1 != p.antenna2)
      first = std::min(first, field);
  }
  if (first == std::numeric_limits<int>::max())
    throw InputError(path, "holds no cross-correlation groups");
  UvfitsObservation o;
  o.fields = layout.fields(last + 1);
  o.first_field = first;
  o.weight_sum = weightSumOf(file, layout, params, first);
  return o;
}

}  // namespace apertura
