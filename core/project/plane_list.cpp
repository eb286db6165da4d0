#include "core/project/plane_list.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "core/util/input_error.h"

namespace apertura::project {
namespace {

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos)
    return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

// A plane index: digits only (no sign, no blanks inside).
int planeIndex(const std::string& text, const std::string& item, const std::string& field) {
  if (text.empty() || !std::all_of(text.begin(), text.end(),
                                   [](unsigned char c) { return std::isdigit(c) != 0; })) {
    throw InputError(field, "'" + item +
                                "' is not a plane index or range (expected e.g. \"0-3, 7\": "
                                "0-based plane numbers)");
  }
  if (text.size() > 7 || std::stoi(text) > kMaxPlaneIndex)
    throw InputError(field, "plane " + text + " is above " + std::to_string(kMaxPlaneIndex));
  return std::stoi(text);
}

}  // namespace

std::vector<int> parsePlaneList(const std::string& text, const std::string& field) {
  std::vector<int> out;
  if (trimmed(text).empty())
    return out;
  std::set<int> seen;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item =
        trimmed(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (item.empty())
      throw InputError(field, "empty entry in the plane list '" + text + "'");
    const std::size_t dash = item.find('-');
    int first = 0, last = 0;
    if (dash == std::string::npos) {
      first = last = planeIndex(item, item, field);
    } else {
      first = planeIndex(trimmed(item.substr(0, dash)), item, field);
      last = planeIndex(trimmed(item.substr(dash + 1)), item, field);
      if (last < first)
        throw InputError(field,
                         "range '" + item + "' runs backwards (write the lower plane first)");
    }
    for (int k = first; k <= last; ++k) {
      if (!seen.insert(k).second)
        throw InputError(field, "plane " + std::to_string(k) + " is listed twice");
      out.push_back(k);
    }
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return out;
}

std::string formatPlaneList(std::vector<int> planes) {
  std::sort(planes.begin(), planes.end());
  std::string out;
  for (std::size_t i = 0; i < planes.size();) {
    std::size_t j = i;
    while (j + 1 < planes.size() && planes[j + 1] == planes[j] + 1)
      ++j;
    if (!out.empty())
      out += ", ";
    if (j >= i + 2) {
      out += std::to_string(planes[i]) + "-" + std::to_string(planes[j]);
      i = j + 1;
    } else {
      out += std::to_string(planes[i]);
      ++i;
    }
  }
  return out;
}

}  // namespace apertura::project
