#pragma once

#include <string>
#include <vector>

namespace apertura {

// Every temporary file or folder Apertura writes is named `final + ".tmp-HOST-PID-N"` (HOST: a
// hash of the host name), with an optional ".old" or ".probe" after it. The name says who made it,
// so a later run can tell the leftovers of a process that died (SIGKILL, power loss) from files
// another process is still writing, also on a file system shared between machines.

// A unique temporary sibling name for `path` (same directory, so rename() stays atomic).
std::string temporarySiblingPath(const std::string& path);

// True when `file_name` (no folder) is one of our temporary names, made on this host by a process
// that no longer runs.
bool isStaleTemporaryName(const std::string& file_name);

// Removes, in `folder` only (not below it), the temporaries that isStaleTemporaryName() picks.
// Returns their paths. Never throws: a leftover that cannot be removed is simply kept.
std::vector<std::string> removeStaleTemporaries(const std::string& folder);

// removeStaleTemporaries() on the folder that holds `path` (".": the working directory).
std::vector<std::string> removeStaleTemporariesBeside(const std::string& path);

}  // namespace apertura
