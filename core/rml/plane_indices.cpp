#include "core/rml/plane_indices.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace apertura::rml {

std::vector<int> allPlanes(int count) {
  std::vector<int> planes(std::size_t(std::max(0, count)));
  std::iota(planes.begin(), planes.end(), 0);
  return planes;
}

std::vector<int> sortedPlaneIndices(std::vector<int> planes, int num_planes,
                                    const std::string& who) {
  std::sort(planes.begin(), planes.end());
  if (!planes.empty() && (planes.front() < 0 || planes.back() >= num_planes))
    throw std::invalid_argument(who + ": plane index outside the cube");
  if (std::adjacent_find(planes.begin(), planes.end()) != planes.end())
    throw std::invalid_argument(who + ": a plane listed twice");
  return planes;
}

}  // namespace apertura::rml
