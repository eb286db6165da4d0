#pragma once

#include <string>
#include <vector>

namespace apertura::rml {

// 0, 1, ..., count - 1: every plane of a cube.
std::vector<int> allPlanes(int count);

// `planes` sorted, after checking that each lies in [0, num_planes) and none is listed twice;
// throws std::invalid_argument starting with `who` otherwise.
std::vector<int> sortedPlaneIndices(std::vector<int> planes, int num_planes,
                                    const std::string& who);

}  // namespace apertura::rml
