#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "core/data/dataset_summary.h"
#include "core/io/correlation.h"

namespace apertura {

class UvfitsHandle;

// The random-groups structure of a UVFITS file (AIPS Memo 117), decoded from the primary header
// and the AIPS FQ and AN tables.
struct UvfitsLayout {
  std::string path;
  long long gcount = 0;
  long pcount = 0;
  int bitpix = 0;

  struct Param {
    std::string type;
    double scale = 1.0, zero = 0.0;
  };
  std::vector<Param> params;     // PTYPE1..PTYPEn
  std::vector<int> date_params;  // indices of DATE (and _DATE) parameters, summed
  int uu = -1, vv = -1, ww = -1, baseline = -1, antenna1 = -1, antenna2 = -1, source = -1,
      freqsel = -1;

  // Data axes NAXIS2.. (NAXIS1 is 0 in random groups) and strides in elements.
  std::vector<long> axis_length;
  std::vector<std::size_t> axis_stride;
  std::size_t group_elements = 0;
  int complex_axis = -1, stokes_axis = -1, freq_axis = -1, if_axis = -1;
  std::size_t ncomplex = 0, nstokes = 0, nchan = 0, nif = 1;

  std::vector<Correlation> correlations;  // STOKES axis, in file order
  double freq_crval = 0, freq_cdelt = 0, freq_crpix = 1;
  std::vector<double> if_offset_hz;         // AIPS FQ "IF FREQ" (zeros without an FQ table)
  std::vector<double> if_channel_width_hz;  // AIPS FQ "CH WIDTH" (else FREQ CDELT)
  std::vector<double> if_total_bandwidth_hz;
  // Every row of the AIPS FQ table (one per frequency setup, FRQSEL); the if_* vectors above hold
  // the setup in use: FRQSEL 1 until selectFrequencySetup() picks the one the groups use.
  struct FrequencySetup {
    int id = 1;
    std::vector<double> offset_hz, channel_width_hz, total_bandwidth_hz;
  };
  std::vector<FrequencySetup> frequency_setups;

  std::string telescope, object, frame;
  double ra_rad = 0, dec_rad = 0;
  int antennas_listed = 0;  // rows of the AN table (0 without one)
  std::vector<double> dish_diameters_m;
  std::vector<std::string> antenna_names;  // AN table ANNAME, by row (empty without one)
  double max_antenna_separation_m = 0.0;   // from the AN tables' STABXYZ; 0 without

  // AIPS SU table of a multi-source file: the groups' SOURCE parameter is a source's ID. NO.
  struct Source {
    int id = 0;  // ID. NO.
    std::string name;
    double ra_rad = 0, dec_rad = 0;  // RAEPO, DECEPO (mean position at the table's EPOCH)
    std::string frame;               // from EPOCH: J2000, B1950, or "" when other
  };
  std::vector<Source> sources;  // in table order; empty for single-source files

  std::vector<std::string> warnings;

  // Channel frequencies of IF `if_index` (0-based): CRVAL + (c + 1 - CRPIX) CDELT + IF FREQ.
  std::vector<double> channelFrequencies(std::size_t if_index) const;
  // One spectral window per IF, as the summary and the reader's SourceInfo report them.
  std::vector<SpectralWindowInfo> spectralWindows() const;
  // Makes the FQ row of the groups' FREQSEL values current. Several distinct values (several
  // frequency setups in one file) or one the FQ table lacks are an InputError naming the file:
  // imaging them with one setup's frequencies would scale the uv coordinates wrongly.
  void selectFrequencySetup(const std::set<int>& freqsel_values);
  // Fields as the summary and the reader report them: one per SU row (in table order) or, without
  // an SU table, `count` fields at the header's position (SOURCE 1..count).
  std::vector<FieldInfo> fields(int count = 1) const;
  // The field index of a group's SOURCE parameter; throws InputError for an ID the SU table does
  // not list.
  int fieldIndex(int source_id) const;
  // Element offset of (complex k, stokes p, channel c, IF i) within a group.
  std::size_t offset(std::size_t k, std::size_t p, std::size_t c, std::size_t i) const;
};

// Decoded random parameters of one group.
struct GroupParams {
  double u_m = 0, v_m = 0, w_m = 0;  // UU/VV/WW are seconds (light travel time): times c
  int antenna1 = 0, antenna2 = 0;    // 0-based (file antenna numbers minus one)
  double time_mjd_s = 0;
  int source = 1;   // SOURCE parameter, 1 when absent
  int freqsel = 1;  // FREQSEL parameter (FQ table FRQSEL), 1 when absent
};

// Opens nothing: reads the header through `file`. Throws InputError for anything that would make
// reading the groups unsafe (missing keywords, unknown axes, GCOUNT/PCOUNT larger than the file).
UvfitsLayout readUvfitsLayout(UvfitsHandle& file);

// Checks the file exists, is a regular file of at least one 2880-byte block and starts with
// "SIMPLE  =". Throws InputError otherwise.
void requireFitsFile(const std::string& path);

// Decodes scaled random parameters (raw values as stored; PSCAL/PZERO applied here). Throws
// InputError when the baseline does not encode two antennas.
GroupParams decodeGroupParams(const UvfitsLayout& layout, const double* raw, long long group);

}  // namespace apertura
