#pragma once

#include <string>

#include "core/data/dataset_summary.h"

namespace apertura {

// Machine-readable summary (`apertura-cli info --json`); angles in radians, frequencies in Hz.
std::string summaryToJson(const DatasetSummary& s, int indent = 2);

}  // namespace apertura
