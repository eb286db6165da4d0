#pragma once

// Command-line helpers shared by the benchmark programs (plain C++: included from .cu files too).
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace apertura::bench {

// "512,1024,2048" -> {512, 1024, 2048} (numbers as std::atof reads them).
inline std::vector<double> parseList(const char* s) {
  std::vector<double> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    out.push_back(std::atof(item.c_str()));
  return out;
}

}  // namespace apertura::bench
