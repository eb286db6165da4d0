#pragma once

#include <memory>
#include <string>

#include "core/io/read_options.h"
#include "core/io/visibility_source.h"

namespace apertura {

// A synchronous UVFITS (random groups) reader. Groups are grouped by field (the SOURCE random
// parameter minus one; field 0 without it), autocorrelations dropped, and cut into blocks of at
// most the chunk size; each block yields one chunk per selected IF (IF k is spectral window k).
// Throws InputError naming the file and the keyword, parameter or table at fault.
std::unique_ptr<VisibilitySource> openUvfitsReader(const std::string& path,
                                                   const ReadOptions& options);

}  // namespace apertura
