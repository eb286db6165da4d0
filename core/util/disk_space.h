#pragma once

#include <string>

namespace apertura {

// When the file system holding `path` is (nearly) full, "no space left on device (N KiB free
// in DIR)"; otherwise "". Write errors append it, so a full disk is named as the cause rather
// than a library's generic "write error".
std::string noSpaceHint(const std::string& path);

}  // namespace apertura
