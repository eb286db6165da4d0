#pragma once

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

namespace apertura::testing {

inline std::string readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void writeBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// Bytes of the primary header (up to the block holding END).
inline std::size_t primaryHeaderSize(const std::string& bytes) {
  for (std::size_t i = 0; i + 80 <= bytes.size(); i += 80) {
    if (bytes.compare(i, 8, "END     ") == 0)
      return (i / 2880 + 1) * 2880;
  }
  return bytes.size();
}

// Replaces the primary-header card of `key` by "KEY     = value" (or blanks it when value is
// empty). Returns false when the card is absent.
inline bool replaceCard(std::string& bytes, const std::string& key, const std::string& value) {
  const std::size_t header = primaryHeaderSize(bytes);
  std::string padded = key;
  padded.resize(8, ' ');
  for (std::size_t i = 0; i + 80 <= header; i += 80) {
    if (bytes.compare(i, 8, padded) != 0)
      continue;
    char card[81];
    if (value.empty()) {
      std::snprintf(card, sizeof card, "%-80s", "COMMENT   removed by a test");
    } else {
      std::snprintf(card, sizeof card, "%-8s= %20s%-50s", key.c_str(), value.c_str(), "");
    }
    bytes.replace(i, 80, card, 80);
    return true;
  }
  return false;
}

}  // namespace apertura::testing
