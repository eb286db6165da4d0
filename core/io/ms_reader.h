#pragma once

#include <memory>
#include <string>

#include "core/io/read_options.h"
#include "core/io/visibility_source.h"

namespace apertura {

// A synchronous Measurement Set reader. Rows are grouped by (FIELD_ID, spectral window,
// DATA_DESC_ID), in that order, autocorrelations and deselected rows dropped; each group is cut
// into chunks of at most the chunk size. Every casacore call happens on the thread that calls the
// source's methods, so construct and use it on one thread (openVisibilitySource runs it on its
// own I/O thread). Throws InputError naming the file and the table/column at fault.
std::unique_ptr<VisibilitySource> openMeasurementSetReader(const std::string& path,
                                                           const ReadOptions& options);

}  // namespace apertura
