#pragma once

#include <string>
#include <vector>

namespace apertura::project {

// Text form of a regularizer's plane list (RegularizerSettings::planes) as the GUI edits it:
// comma-separated 0-based plane indices and inclusive ranges, e.g. "0-3, 7" for {0, 1, 2, 3, 7}.
// Empty text (or only blanks) is the empty list: every plane.
//
// Parses `text`; throws InputError naming `field` with what is wrong (not a number, a reversed
// range, a plane listed twice, an index above kMaxPlaneIndex). The list keeps the text's order.
std::vector<int> parsePlaneList(const std::string& text, const std::string& field);

// The shortest text parsePlaneList reads back as the same set: sorted, runs of three or more
// consecutive planes as ranges ("0-3, 7"; "4, 5" stays a list). Empty list: empty text.
std::string formatPlaneList(std::vector<int> planes);

// Larger indices are refused as typos (a cube of a million planes is not imaged interactively).
constexpr int kMaxPlaneIndex = 1'000'000;

}  // namespace apertura::project
