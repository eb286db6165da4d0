#pragma once

#include <memory>
#include <string>

#include "core/io/read_options.h"
#include "core/io/visibility_source.h"

namespace apertura {

// Opens a Measurement Set or UVFITS file (detected from the path) for chunked reading. The reader
// runs on its own I/O thread behind a bounded prefetch queue (PrefetchSource). ReadMode::kAuto
// keeps everything in RAM (ResidentSource) when the selected samples fit
// options.memory_budget_bytes (residentBytes below), and streams from disk on every pass
// otherwise. Both give bit-identical chunks. Throws InputError for bad input.
std::unique_ptr<VisibilitySource> openVisibilitySource(const std::string& path,
                                                       const ReadOptions& options);

// Bytes a resident copy of the selection takes: 12 per sample (complex<float> + weight) plus
// 48 per row (uvw, time, antennas).
std::size_t residentBytes(const SourceInfo& info);

}  // namespace apertura
