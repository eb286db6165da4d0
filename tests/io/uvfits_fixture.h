#pragma once

#include <complex>
#include <string>

namespace apertura::testing {

// A small UVFITS file written by the tests with cfitsio, with fully known content: 6 groups
// (one an autocorrelation), 2 IFs x 3 channels x 4 Stokes (RR LL RL LR), UU/VV/WW in seconds
// scaled by PSCAL, two DATE parameters, AIPS FQ and AN tables. Sample values come from the
// functions below so that tests can compute what a reader must return.
struct UvfitsFixture {
  static constexpr int kGroups = 6;
  static constexpr int kAutocorrelations = 1;  // group 3
  static constexpr int kIfs = 2;
  static constexpr int kChannels = 3;
  static constexpr int kStokes = 4;
  static constexpr int kAntennas = 4;  // AN table rows (antenna 4 unused)
  static constexpr double kRefFrequencyHz = 8.0e9;
  static constexpr double kChannelWidthHz = 1.0e6;
  static constexpr double kIfOffsetHz = 32.0e6;  // IF 2 = IF 1 + 32 MHz
  static constexpr double kDishDiameterM = 25.0;
  static constexpr double kRaDeg = 187.5, kDecDeg = 12.25;
  static constexpr double kJdStart = 2457848.5;  // 2017-04-05 00:00 UTC
  static constexpr double kSpeedOfLight = 299792458.0;

  struct Options {
    bool antenna_params = false;  // ANTENNA1/ANTENNA2 parameters instead of BASELINE
    bool wide_array = false;      // antenna 300 on group 5 (2048-style baseline encoding)
    bool with_fq = true;
    bool with_an = true;
    bool all_flagged = false;  // every weight negative
    // Group 0 has UU = NaN, group 1 UU = 1e20 m, group 2 UU = VV = WW = 0.
    bool impossible_geometry = false;
    // A SOURCE parameter and an AIPS SU table: groups 0-2 observe ID 3 (kSourceA), groups 3-5
    // ID 7 (kSourceB); the table lists ID 7 first. `unknown_source` makes group 5 ID 5.
    bool multi_source = false;
    bool unknown_source = false;
    // A second FQ row (FRQSEL 2: IFs kSetup2OffsetHz higher) and a FREQSEL parameter with this
    // value on every group (0: no parameter); `mixed_freqsel` gives group 5 FREQSEL 1 instead.
    bool second_setup = false;
    int freqsel = 0;
    bool mixed_freqsel = false;
    bool integer_data = false;  // BITPIX 16 (values rounded) instead of -32
  };
  static constexpr double kSetup2OffsetHz = 100.0e6;
  static constexpr double kSourceARaDeg = 200.0, kSourceADecDeg = 45.5;
  static constexpr double kSourceBRaDeg = 10.5, kSourceBDecDeg = -20.25;
  static int sourceId(int g, const Options& o);

  static int antenna1(int g);  // 1-based, as in the file
  static int antenna2(int g, const Options& o);
  static double uMetres(int g);
  static double vMetres(int g);
  static double wMetres(int g);
  static double timeOffsetS(int g);  // seconds after kJdStart
  // Correlation k (0 RR, 1 LL, 2 RL, 3 LR) of group g, IF i, channel c. One LL sample is
  // flagged (negative weight), one RL is exactly zero with positive weight, one RR is NaN.
  static std::complex<float> value(int g, int i, int c, int k);
  static float weight(int g, int i, int c, int k, const Options& o);
  static double frequencyHz(int i, int c);

  // Writes the file at `path` (overwriting) and returns path.
  static std::string write(const std::string& path, const Options& options);
  static std::string write(const std::string& path) { return write(path, Options{}); }
};

}  // namespace apertura::testing
