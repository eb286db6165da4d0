#include "core/plugin/plugin_visibility_source.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/io/chunk_rows.h"
#include "core/util/cancellation.h"
#include "core/util/input_error.h"

namespace apertura::plugin {
namespace {

// Closes the plugin's handle however the read ends.
struct TableHandle {
  const AperturaReaderV1* api;
  void* handle;
  ~TableHandle() {
    if (handle)
      api->close(handle);
  }
};

bool sameFrequencies(const AperturaVisibilityTableV1& t, std::size_t r0, std::size_t r1,
                     std::size_t c0, std::size_t nc) {
  for (std::size_t c = c0; c < c0 + nc; ++c) {
    if (t.frequency_hz[r0 * t.channels + c] != t.frequency_hz[r1 * t.channels + c])
      return false;
  }
  return true;
}

}  // namespace

PluginVisibilitySource::PluginVisibilitySource(const ReaderEntry& reader, const std::string& path,
                                               const ReadOptions& options) {
  const VisibilitySelection& sel = options.selection;
  if (sel.product != Product::I) {
    throw InputError(path, "the " + std::string(reader.api->name) +
                               " format holds a single product, imaged as I; product " +
                               productName(sel.product) + " is not available");
  }
  AperturaVisibilityTableV1 t{};
  char error[1024] = {0};
  TableHandle h{reader.api, reader.api->open(path.c_str(), &t, error, sizeof error)};
  if (!h.handle)
    throw InputError(path, error[0] ? error : "the plugin reader failed without a reason");
  if (t.rows > 0 &&
      (t.channels == 0 || !t.uvw_m || !t.frequency_hz || !t.re || !t.im || !t.weight)) {
    throw InputError(
        path, "plugin reader '" + std::string(reader.api->name) + "' returned an incomplete table");
  }

  const int c0 = std::max(0, sel.channel_start);
  const int nchan_file = static_cast<int>(t.channels);
  if (t.rows > 0 && c0 >= nchan_file) {
    throw InputError(path, "channel_start " + std::to_string(c0) + " is beyond the " +
                               std::to_string(nchan_file) + " channels of the file");
  }
  const std::size_t nc =
      std::size_t(std::min(nchan_file - c0, sel.channel_count.value_or(nchan_file - c0)));
  const bool field_ok = sel.wantsField(0) && sel.wantsSpectralWindow(0);

  info_.path = path;
  info_.format = reader.api->name;
  info_.telescope = t.telescope ? t.telescope : "";
  info_.product = Product::I;
  FieldInfo field;
  field.name = "field";
  if (t.has_phase_centre) {
    field.ra_rad = t.ra_rad;
    field.dec_rad = t.dec_rad;
    field.frame = "J2000";
  }
  info_.fields.push_back(field);

  const std::size_t chunk_rows =
      std::max<std::size_t>(1, options.chunk_rows.value_or(autoChunkRows(options, nc, 1)));
  std::size_t bad = 0;
  double fmin = INFINITY, fmax = 0.0;
  std::set<double> distinct;
  std::size_t out_row = 0;
  for (std::size_t r = 0; field_ok && r < t.rows;) {
    if (options.cancel && options.cancel->cancelled())
      throw OperationCancelled();
    // A run of rows sharing their channel frequencies becomes one chunk; rows at other
    // frequencies are rescaled (see the header).
    std::size_t end = r + 1;
    while (end < t.rows && end - r < chunk_rows && sameFrequencies(t, r, end, c0, nc))
      ++end;
    const bool mixed = end - r < chunk_rows && end < t.rows && end - r == 1;
    if (mixed) {
      end = std::min(t.rows, r + std::max<std::size_t>(1, chunk_rows / nc));
    }
    VisibilityChunk chunk;
    chunk.first_row = out_row;
    const std::size_t rows_here = mixed ? (end - r) * nc : end - r;
    const std::size_t chans_here = mixed ? 1 : nc;
    const double f_ref = t.frequency_hz[r * t.channels + c0];
    chunk.frequencies_hz.resize(chans_here);
    for (std::size_t c = 0; c < chans_here; ++c)
      chunk.frequencies_hz[c] = t.frequency_hz[r * t.channels + c0 + c];
    chunk.uvw_m.resize(3 * rows_here);
    chunk.visibilities.resize(rows_here * chans_here);
    chunk.weights.resize(rows_here * chans_here);
    chunk.time_mjd_s.assign(rows_here, 0.0);
    chunk.antenna1.assign(rows_here, 0);
    chunk.antenna2.assign(rows_here, 1);
    chunk.source_rows.resize(rows_here);
    std::size_t k = 0;
    for (std::size_t row = r; row < end; ++row) {
      for (std::size_t c = 0; c < nc; ++c) {
        const std::size_t s = row * t.channels + c0 + c;
        const double f = t.frequency_hz[s];
        const std::size_t out_sample = mixed ? k : (row - r) * nc + c;
        const std::size_t out_r = mixed ? k : row - r;
        if (mixed || c == 0) {
          // Imaging convention: the negative of the file's (Measurement Set) uvw.
          const double scale = mixed ? -f / f_ref : -1.0;
          for (int i = 0; i < 3; ++i)
            chunk.uvw_m[3 * out_r + i] = scale * t.uvw_m[3 * row + i];
          chunk.source_rows[out_r] = row;
        }
        const bool finite =
            std::isfinite(t.re[s]) && std::isfinite(t.im[s]) && std::isfinite(t.weight[s]) &&
            t.weight[s] >= 0.0 && f > 0.0 && std::isfinite(t.uvw_m[3 * row]) &&
            std::isfinite(t.uvw_m[3 * row + 1]) && std::isfinite(t.uvw_m[3 * row + 2]);
        bad += finite ? 0 : 1;
        chunk.visibilities[out_sample] =
            finite ? std::complex<float>(float(t.re[s]), float(t.im[s])) : 0.0f;
        chunk.weights[out_sample] = finite ? float(t.weight[s]) : 0.0f;
        if (!finite && (mixed || c == 0)) {
          for (int i = 0; i < 3; ++i)
            chunk.uvw_m[3 * out_r + i] =
                std::isfinite(chunk.uvw_m[3 * out_r + i]) ? chunk.uvw_m[3 * out_r + i] : 0.0;
        }
        if (f > 0.0 && std::isfinite(f)) {
          fmin = std::min(fmin, f);
          fmax = std::max(fmax, f);
          if (distinct.size() < 100000)
            distinct.insert(f);
        }
        ++k;
      }
    }
    info_.rows += rows_here;
    info_.samples += rows_here * chans_here;
    info_.chunk_rows = std::max(info_.chunk_rows, rows_here);
    info_.max_channels = std::max(info_.max_channels, chans_here);
    out_row += rows_here;
    chunks_.push_back(std::move(chunk));
    r = end;
  }
  info_.selection_rows = info_.rows;
  if (options.row_range) {
    // The whole table is in memory anyway: cut the chunks of a full read to the range.
    clipChunksToRange(chunks_, *options.row_range);
    info_.rows = info_.samples = 0;
    for (const auto& c : chunks_) {
      info_.rows += c.num_rows();
      info_.samples += c.num_samples();
    }
  }
  SpectralWindowInfo spw;
  spw.num_channels = static_cast<int>(std::max<std::size_t>(1, distinct.size()));
  spw.first_channel_hz = std::isfinite(fmin) ? fmin : 0.0;
  spw.last_channel_hz = fmax;
  spw.ref_frequency_hz = std::isfinite(fmin) ? 0.5 * (fmin + fmax) : 0.0;
  spw.total_bandwidth_hz = std::isfinite(fmin) ? fmax - fmin : 0.0;
  info_.spectral_windows.push_back(spw);
  if (bad > 0) {
    warnings_.push_back(path + ": " + std::to_string(bad) +
                        " samples with a non-finite value, weight, frequency or uvw (or a negative "
                        "weight) were flagged");
  }
}

bool PluginVisibilitySource::next(VisibilityChunk& chunk) {
  if (next_ >= chunks_.size())
    return false;
  chunk = chunks_[next_++];
  return true;
}

std::unique_ptr<VisibilitySource> openWithPluginReader(const PluginRegistry& registry,
                                                       const std::string& path,
                                                       const ReadOptions& options) {
  const ReaderEntry reader = registry.findReader(path);
  if (!reader.api)
    return nullptr;
  return std::make_unique<PluginVisibilitySource>(reader, path, options);
}

}  // namespace apertura::plugin
