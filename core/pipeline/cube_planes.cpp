#include "core/pipeline/cube_planes.h"

#include <algorithm>

#include "core/engine/rank_gather.h"
#include "core/pipeline/pipeline_stages.h"
#include "core/util/input_error.h"

namespace apertura::pipeline {

std::vector<SpectralWindowChannels> spectralWindowsOf(ChunkSequence& chunks) {
  std::vector<SpectralWindowChannels> windows;
  chunks.forEach([&](const VisibilityChunk& c, std::size_t i) {
    auto it = std::find_if(windows.begin(), windows.end(), [&](const SpectralWindowChannels& w) {
      return w.spectral_window == c.spectral_window_id;
    });
    if (it == windows.end()) {
      windows.push_back({c.spectral_window_id, c.frequencies_hz});
    } else if (it->frequencies_hz != c.frequencies_hz) {
      throw InputError("imaging.spectral_mode",
                       "cube: chunk " + std::to_string(i) + " of spectral window " +
                           std::to_string(c.spectral_window_id) +
                           " has other channels than the window's first chunk");
    }
  });
  return windows;
}

std::vector<CubePlane> cubePlanes(const std::vector<SpectralWindowChannels>& windows,
                                  int channels_per_plane) {
  if (channels_per_plane < 1)
    throw InputError("imaging.channels_per_plane", "must be >= 1");
  const std::size_t n = std::size_t(channels_per_plane);
  std::vector<CubePlane> planes;
  for (const auto& w : windows) {
    for (std::size_t c0 = 0; c0 < w.frequencies_hz.size(); c0 += n) {
      CubePlane p;
      p.spectral_window = w.spectral_window;
      p.first_channel = c0;
      p.num_channels = std::min(n, w.frequencies_hz.size() - c0);
      const auto first = w.frequencies_hz.begin() + std::ptrdiff_t(c0);
      const auto last = first + std::ptrdiff_t(p.num_channels);
      double sum = 0.0;
      for (auto f = first; f != last; ++f)
        sum += *f;
      p.frequency_hz = sum / double(p.num_channels);
      p.bandwidth_hz =
          *std::max_element(first, last) - *std::min_element(first, last) + w.channel_width_hz;
      planes.push_back(p);
    }
  }
  // Frequency order, so that adjacent planes (across-channel terms, the FITS axis) are adjacent
  // in frequency even when spectral windows come in another order.
  std::stable_sort(planes.begin(), planes.end(), [](const CubePlane& a, const CubePlane& b) {
    return a.frequency_hz < b.frequency_hz;
  });
  return planes;
}

VisibilityChunk sliceChannels(const VisibilityChunk& c, const CubePlane& plane) {
  VisibilityChunk s;
  s.field_id = c.field_id;
  s.spectral_window_id = c.spectral_window_id;
  s.first_row = c.first_row;
  s.uvw_m = c.uvw_m;
  s.time_mjd_s = c.time_mjd_s;
  s.antenna1 = c.antenna1;
  s.antenna2 = c.antenna2;
  s.source_rows = c.source_rows;
  const std::size_t nc = c.num_channels(), c0 = plane.first_channel, n = plane.num_channels;
  s.frequencies_hz.assign(c.frequencies_hz.begin() + std::ptrdiff_t(c0),
                          c.frequencies_hz.begin() + std::ptrdiff_t(c0 + n));
  const std::size_t rows = c.num_rows();
  s.visibilities.resize(rows * n);
  s.weights.resize(rows * n);
  for (std::size_t r = 0; r < rows; ++r) {
    std::copy_n(c.visibilities.begin() + std::ptrdiff_t(r * nc + c0), n,
                s.visibilities.begin() + std::ptrdiff_t(r * n));
    std::copy_n(c.weights.begin() + std::ptrdiff_t(r * nc + c0), n,
                s.weights.begin() + std::ptrdiff_t(r * n));
  }
  return s;
}

void PlaneChunks::forEach(const Visitor& visit) {
  std::size_t index = 0;
  all_.forEach([&](const VisibilityChunk& c, std::size_t) {
    if (c.spectral_window_id != plane_.spectral_window)
      return;
    const VisibilityChunk s = sliceChannels(c, plane_);
    visit(s, index++);
  });
}

std::vector<SpectralWindowChannels> windowsOfEveryRank(
    const std::vector<SpectralWindowChannels>& own, engine::Communicator& comm) {
  // Per window: its id, its number of channels and their frequencies.
  std::vector<double> packed;
  for (const auto& w : own) {
    packed.push_back(double(w.spectral_window));
    packed.push_back(double(w.frequencies_hz.size()));
    packed.insert(packed.end(), w.frequencies_hz.begin(), w.frequencies_hz.end());
  }
  const std::vector<std::vector<double>> lists = engine::gatherOnEveryRank(packed, comm);
  std::vector<SpectralWindowChannels> all;
  for (std::size_t r = 0; r < lists.size(); ++r) {
    const std::vector<double>& list = lists[r];
    for (std::size_t i = 0; i + 1 < list.size();) {
      SpectralWindowChannels w;
      w.spectral_window = int(list[i]);
      const auto first = list.begin() + std::ptrdiff_t(i) + 2;
      w.frequencies_hz.assign(first, first + std::ptrdiff_t(list[i + 1]));
      i += 2 + w.frequencies_hz.size();
      auto it = std::find_if(all.begin(), all.end(), [&](const SpectralWindowChannels& a) {
        return a.spectral_window == w.spectral_window;
      });
      if (it == all.end())
        all.push_back(std::move(w));
      else if (it->frequencies_hz != w.frequencies_hz)
        throw InputError("imaging.spectral_mode",
                         "cube: rank " + std::to_string(r) + " holds other channels of spectral " +
                             "window " + std::to_string(w.spectral_window) +
                             " than a rank before it");
    }
  }
  return all;
}

CubeData splitIntoPlanes(RunData& data, int channels_per_plane) {
  CubeData cube;
  std::vector<SpectralWindowChannels> windows = spectralWindowsOf(*data.sequence);
  if (data.distributed())
    windows = windowsOfEveryRank(windows, *data.comm);
  for (SpectralWindowChannels& w : windows)
    w.channel_width_hz = data.channelWidth(w.spectral_window);
  cube.planes = cubePlanes(windows, channels_per_plane);
  const std::size_t P = cube.planes.size();
  if (data.streaming) {
    for (const CubePlane& p : cube.planes)
      cube.sequences.push_back(std::make_unique<PlaneChunks>(*data.sequence, p));
  } else {
    cube.held.resize(P);
    // Cut chunk by chunk and release each one: the data are held about once, not twice.
    for (VisibilityChunk& c : data.chunks) {
      for (std::size_t k = 0; k < P; ++k) {
        if (cube.planes[k].spectral_window == c.spectral_window_id)
          cube.held[k].push_back(sliceChannels(c, cube.planes[k]));
      }
      c = VisibilityChunk{};
    }
    data.sequence.reset();
    data.chunks.clear();
    for (const auto& chunks : cube.held)
      cube.sequences.push_back(std::make_unique<HeldChunks>(chunks));
  }
  for (const auto& seq : cube.sequences)
    cube.totals.push_back(rml::countDataTotals(*seq));
  if (data.distributed()) {
    // Each plane's data term needs the totals of every rank's samples.
    std::vector<double> sums;
    for (const auto& t : cube.totals) {
      sums.push_back(double(t.valid_samples));
      sums.push_back(t.sum_weights);
    }
    data.comm->sum(sums.data(), sums.size());
    for (std::size_t k = 0; k < P; ++k)
      cube.totals[k] = {std::size_t(sums[2 * k]), sums[2 * k + 1]};
  }
  return cube;
}

}  // namespace apertura::pipeline
