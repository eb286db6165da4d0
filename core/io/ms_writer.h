#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace apertura {

// Correlation products written to DATA: XX YY (linear feeds) or RR LL (circular feeds).
enum class CorrelationBasis { Linear, Circular };

struct MsAntennaInfo {
  std::string name;
  std::string station;
  double position_itrf_m[3] = {0.0, 0.0, 0.0};
  double dish_diameter_m = 0.0;
  std::string mount = "ALT-AZ";
};

struct MsFieldInfo {
  std::string name;
  double ra_rad = 0.0;  // J2000
  double dec_rad = 0.0;
};

struct MsSpectralWindowInfo {
  std::string name;
  std::vector<double> channel_frequencies_hz;
  double channel_width_hz = 0.0;
};

// Everything a Measurement Set needs besides its rows: the subtables.
struct MsLayout {
  std::string telescope_name;
  std::string observer = "apertura";
  std::string project;
  std::vector<MsAntennaInfo> antennas;
  std::vector<MsFieldInfo> fields;
  std::vector<MsSpectralWindowInfo> spectral_windows;  // data description i = spectral window i
  CorrelationBasis basis = CorrelationBasis::Linear;
  double start_time_mjd_s = 0.0;
  double end_time_mjd_s = 0.0;
  std::vector<std::string> history;  // HISTORY rows (provenance)
};

// A block of rows sharing one data description (spectral window) and field. Arrays are row-major:
// data and flag hold rows x channels x correlations, sigma and weight rows x correlations.
struct MsRowBlock {
  int data_desc_id = 0;
  int field_id = 0;
  int scan_number = 1;
  double interval_s = 0.0;
  std::vector<double> time_mjd_s;  // per row (UTC, mid-integration)
  std::vector<int> antenna1;
  std::vector<int> antenna2;
  std::vector<double> uvw_m;  // 3 per row
  std::vector<std::complex<float>> data;
  std::vector<float> sigma;
  std::vector<float> weight;
  std::vector<std::uint8_t> flag;  // empty: nothing flagged

  std::size_t rows() const { return antenna1.size(); }
};

// Writes a standard Measurement Set (v2) with all required subtables filled (ANTENNA, FIELD,
// SPECTRAL_WINDOW, POLARIZATION, DATA_DESCRIPTION, OBSERVATION, FEED, HISTORY, ...) that casacore,
// CASA and WSClean read. Rows are written in blocks (putColumnRange), DATA and FLAG through
// tiled storage managers. The table is created at `path`, which must not exist; callers that
// need an atomic result write to a temporary sibling and rename (see simulator.cpp).
// casacore is not thread-safe: use one writer from one thread.
class MeasurementSetWriter {
 public:
  MeasurementSetWriter(const std::string& path, const MsLayout& layout);
  ~MeasurementSetWriter();
  MeasurementSetWriter(const MeasurementSetWriter&) = delete;
  MeasurementSetWriter& operator=(const MeasurementSetWriter&) = delete;

  void write(const MsRowBlock& block);
  // Flushes and closes the table; further writes throw.
  void close();
  std::uint64_t rowsWritten() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace apertura
