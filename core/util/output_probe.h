#pragma once

#include <string>

namespace apertura {

// Checks, before any computing, that files named `prefix` + suffix can be created: creates and
// removes a probe file beside them. Throws InputError naming `key` (e.g. "output.prefix") and the
// folder when it is missing, not a folder, or not writable — so a run does not find out only at
// export, after all its work.
void requireWritablePrefix(const std::string& prefix, const std::string& key);

}  // namespace apertura
