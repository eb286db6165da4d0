// Read throughput and peak memory of the visibility readers, resident versus streaming, on
// Measurement Sets this program writes (core/io/ms_writer.h) with a growing number of rows.
// Streaming memory must stay flat as the data grow; resident memory grows with them.
//
//   bench_read [max_visibilities=10000000] [work_dir=/tmp]
//
// Peak RSS is VmHWM from /proc/self/status, reset before each measurement by writing 5 to
// /proc/self/clear_refs (Linux >= 4.0). The files were just written, so reads come from the page
// cache: the figures are the reader's own cost (casacore, product forming, queueing).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/io/ms_writer.h"
#include "core/io/visibility_source_factory.h"

using namespace apertura;
namespace fs = std::filesystem;

namespace {

constexpr int kAntennas = 16;
constexpr int kChannels = 64;

long peakRssKb() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmHWM:", 0) == 0)
      return std::atol(line.c_str() + 6);
  }
  return -1;
}

long currentRssKb() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0)
      return std::atol(line.c_str() + 6);
  }
  return -1;
}

void resetPeakRss() {
  std::ofstream("/proc/self/clear_refs") << "5";
}

// A 16-antenna array, 64 channels at 1.4 GHz, XX YY, rows in blocks of one time step.
void writeMs(const std::string& path, std::size_t rows) {
  MsLayout layout;
  layout.telescope_name = "BENCH";
  for (int a = 0; a < kAntennas; ++a) {
    MsAntennaInfo ant;
    ant.name = "B" + std::to_string(a);
    ant.station = ant.name;
    ant.position_itrf_m[0] = -1601000.0 + 37.0 * a * a;
    ant.position_itrf_m[1] = -5042000.0 + 53.0 * a;
    ant.position_itrf_m[2] = 3554000.0 - 29.0 * a;
    ant.dish_diameter_m = 25.0;
    layout.antennas.push_back(ant);
  }
  layout.fields.push_back({"BENCH_FIELD", 1.0, 0.6});
  MsSpectralWindowInfo spw;
  spw.name = "L";
  for (int c = 0; c < kChannels; ++c)
    spw.channel_frequencies_hz.push_back(1.4e9 + 1e6 * c);
  spw.channel_width_hz = 1e6;
  layout.spectral_windows.push_back(spw);
  layout.start_time_mjd_s = 5.0e9;
  const int baselines = kAntennas * (kAntennas - 1) / 2;
  const std::size_t steps = (rows + baselines - 1) / baselines;
  layout.end_time_mjd_s = 5.0e9 + 10.0 * static_cast<double>(steps);
  MeasurementSetWriter writer(path, layout);
  std::size_t written = 0;
  for (std::size_t t = 0; written < rows; ++t) {
    MsRowBlock b;
    b.interval_s = 10.0;
    for (int a1 = 0; a1 < kAntennas && written < rows; ++a1) {
      for (int a2 = a1 + 1; a2 < kAntennas && written < rows; ++a2, ++written) {
        b.time_mjd_s.push_back(5.0e9 + 10.0 * static_cast<double>(t));
        b.antenna1.push_back(a1);
        b.antenna2.push_back(a2);
        const double h = 0.001 * static_cast<double>(t);
        b.uvw_m.push_back(40.0 * (a2 - a1) * std::cos(h));
        b.uvw_m.push_back(25.0 * (a2 + a1) * std::sin(h + 0.3));
        b.uvw_m.push_back(3.0 * (a2 - a1));
        for (int c = 0; c < kChannels; ++c) {
          b.data.emplace_back(1.0f + 0.001f * static_cast<float>(c), 0.5f);
          b.data.emplace_back(1.0f - 0.001f * static_cast<float>(c), -0.5f);
        }
        b.sigma.insert(b.sigma.end(), {1.0f, 1.0f});
        b.weight.insert(b.weight.end(), {1.0f, 1.0f});
      }
    }
    writer.write(b);
  }
  writer.close();
}

struct Figures {
  double open_s = 0, pass_s = 0;
  std::uint64_t samples = 0;
  long peak_kb = 0;
  double checksum = 0;
};

Figures measure(const std::string& path, ReadMode mode) {
  resetPeakRss();
  ReadOptions o;
  o.mode = mode;
  o.chunk_rows = 4096;
  const auto t0 = std::chrono::steady_clock::now();
  auto source = openVisibilitySource(path, o);  // resident: reads everything here
  const auto t1 = std::chrono::steady_clock::now();
  Figures f;
  VisibilityChunk chunk;
  while (source->next(chunk)) {
    f.samples += chunk.num_samples();
    for (std::size_t i = 0; i < chunk.num_samples(); i += 97)
      f.checksum += chunk.weights[i];
  }
  const auto t2 = std::chrono::steady_clock::now();
  f.open_s = std::chrono::duration<double>(t1 - t0).count();
  f.pass_s = std::chrono::duration<double>(t2 - t1).count();
  f.peak_kb = peakRssKb();
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  const double max_vis = argc > 1 ? std::atof(argv[1]) : 1.0e7;
  const fs::path work = fs::path(argc > 2 ? argv[2] : "/tmp") / "apertura_bench_read";
  fs::remove_all(work);
  fs::create_directories(work);
  std::printf("bench_read: %d antennas, %d channels, XX YY -> Stokes I, chunks of 4096 rows\n",
              kAntennas, kChannels);
  std::printf("%12s %9s | %-9s %9s %14s %14s %11s\n", "visibilities", "rows", "mode", "open s",
              "open vis/s", "pass vis/s", "peak RSS MB");
  for (double vis : {max_vis / 10.0, max_vis / 3.0, max_vis}) {
    const auto rows = static_cast<std::size_t>(std::ceil(vis / kChannels));
    const std::string path = (work / ("bench_" + std::to_string(rows) + ".ms")).string();
    writeMs(path, rows);
    for (ReadMode mode : {ReadMode::kStreaming, ReadMode::kResident}) {
      const Figures f = measure(path, mode);
      const bool streaming = mode == ReadMode::kStreaming;
      // Streaming reads from disk during the pass; resident reads during open, then from RAM.
      const double disk_rate = static_cast<double>(f.samples) / (streaming ? f.pass_s : f.open_s);
      std::printf("%12llu %9zu | %-9s %9.3f %14.3e %14.3e %11.1f\n",
                  static_cast<unsigned long long>(f.samples), rows,
                  streaming ? "streaming" : "resident", f.open_s, disk_rate,
                  static_cast<double>(f.samples) / f.pass_s,
                  static_cast<double>(f.peak_kb) / 1024.0);
    }
    fs::remove_all(path);
  }
  std::printf(
      "(open vis/s: read from the file; pass vis/s: one pass after opening; RSS now %.1f MB)\n",
      static_cast<double>(currentRssKb()) / 1024.0);
  fs::remove_all(work);
  return 0;
}
