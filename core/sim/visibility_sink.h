#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/io/ms_writer.h"

namespace apertura::sim {

// The file format a simulation writes.
enum class OutputFormat { MeasurementSet, Uvfits };

// By extension: .uvfits, .uvf, .fits and .fit (any case) are UVFITS; anything else (.ms, or no
// extension) is a Measurement Set.
OutputFormat outputFormatForPath(const std::string& path);
const char* outputFormatName(OutputFormat format);

// Where simulated rows go. Both kinds build their output under a temporary sibling name and move
// it into place in finish(), so the file appears complete or not at all; an existing path is
// replaced only with overwrite (InputError naming the path otherwise). Destroying a sink without
// finish() (an exception) removes the partial output.
class VisibilitySink {
 public:
  virtual ~VisibilitySink() = default;
  // Blocks come as simulateObservation writes them: for each set of rows (one time), the
  // spectral windows in order.
  virtual void write(const MsRowBlock& block) = 0;
  virtual void finish() = 0;
};

struct SinkOptions {
  bool overwrite = false;
  std::uint64_t rows_per_spectral_window = 0;  // UVFITS: the number of random groups
  double ut1_minus_utc_s = 0.0;
  double tai_minus_utc_s = 37.0;
};

std::unique_ptr<VisibilitySink> openVisibilitySink(OutputFormat format, const std::string& path,
                                                   const MsLayout& layout,
                                                   const SinkOptions& options);

}  // namespace apertura::sim
