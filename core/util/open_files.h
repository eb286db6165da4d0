#pragma once

#include <string>

namespace apertura {

// How many more files this process may open: the RLIMIT_NOFILE soft limit less the descriptors
// open now (counted in /proc/self/fd); a large number when there is no limit.
long freeFileDescriptors();

// Throws ResourceError naming `path` unless `needed` more files can be opened, after raising the
// soft limit to the hard one if that helps. casacore opens a file per subtable and storage
// manager while it creates a Measurement Set, and one that fails to open then can throw from a
// table's destructor, which ends the process (std::terminate): so the check comes first.
void requireFreeFileDescriptors(long needed, const std::string& path, const std::string& what);

}  // namespace apertura
