#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/io/ms_writer.h"

namespace apertura {

struct UvfitsWriteOptions {
  bool overwrite = false;       // replace an existing file (InputError otherwise)
  std::uint64_t groups = 0;     // random groups to come: rows per spectral window (see below)
  double ut1_minus_utc_s = 0;   // AN table UT1UTC (and the GSTIA0 it implies)
  double tai_minus_utc_s = 37;  // AN table IATUTC (leap seconds)
};

// Writes a single-source UVFITS file in the AIPS random-groups layout (AIPS Memo 117), the one
// AIPS, CASA (importuvfits), Difmap and our own reader (uvfits_layout.h) read:
//   - primary HDU, BITPIX -64 (IEEE double, so uvw and times survive to ~1e-16 relative; AIPS
//     and CASA read it), axes COMPLEX (re, im, weight), STOKES (-5.. XX YY or -1.. RR LL),
//     FREQ, IF (one per spectral window), RA, DEC; random parameters UU---SIN VV---SIN WW---SIN
//     (seconds), BASELINE (256 a1 + a2, 1-based; 2048 a1 + a2 + 65536 above 255 antennas),
//     DATE twice (PZERO = Julian date of 0h UTC on the first day; day offset + fraction of day),
//     INTTIM (s);
//   - AIPS FQ table (IF FREQ offsets, CH WIDTH, TOTAL BANDWIDTH, SIDEBAND);
//   - AIPS AN table (ANNAME, STABXYZ relative to ARRAYX/Y/Z, ITRF; MNTSTA, DIAMETER, POLTYA/B,
//     FREQ, RDATE, GSTIA0, DEGPDY, TIMSYS UTC).
// Input comes as the MeasurementSetWriter takes it (MsLayout, MsRowBlock) so a simulator can feed
// either: the blocks of spectral windows 0..n-1 for the same rows (same times, baselines, uvw)
// arrive one after the other, and each complete set becomes one group per row. UVFITS puts every
// spectral window on one IF axis, so all of them need the same number of channels and the same
// channel width (InputError otherwise: write a Measurement Set). Weights are the blocks' WEIGHT
// (negated for flagged samples, the AIPS convention). UVW is stored with the MS sign: both our
// readers turn it into the imaging convention the same way.
// The file is written to a temporary sibling and renamed over `path` by close(), so it appears
// complete or not at all; without close() (an exception) the temporary file is removed.
class UvfitsWriter {
 public:
  UvfitsWriter(const std::string& path, const MsLayout& layout, const UvfitsWriteOptions& options);
  ~UvfitsWriter();
  UvfitsWriter(const UvfitsWriter&) = delete;
  UvfitsWriter& operator=(const UvfitsWriter&) = delete;

  void write(const MsRowBlock& block);
  // Writes the tables and moves the file into place. Throws when fewer or more groups than
  // options.groups were written.
  void close();
  std::uint64_t groupsWritten() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// True when the path names a UVFITS file by its extension (.uvfits, .uvf, .fits, .fit; any case).
bool hasUvfitsExtension(const std::string& path);

}  // namespace apertura
