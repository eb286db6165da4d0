#pragma once

#include <string>

namespace apertura {

// Replaces `path` with `content` atomically: a reader sees the old file or the new one, never a
// half-written one. Throws InputError naming the path when the directory is not writable.
void writeFileAtomically(const std::string& path, const std::string& content);

}  // namespace apertura
