#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/project/project_settings.h"

namespace apertura::rml {
class Regularizer;
}

namespace apertura::pipeline {

// Builds a project's regularizer. Type names and their parameters (defaults in brackets):
//   l1 {epsilon [0]}, l2, entropy {prior [1e-6] Jy/pixel}, tv and tv-aniso {epsilon [1e-8]},
//   tsv, laplacian, huber {delta [1e-3]}.
// `mask` (empty: none) is applied when the settings ask for it. Throws InputError for an unknown
// type or parameter, naming regularizers[index].
std::shared_ptr<rml::Regularizer> makeRegularizer(const project::RegularizerSettings& settings,
                                                  int nx, int ny, const std::vector<double>& mask,
                                                  std::size_t index);

// An across-channel term (tv-spectral {epsilon [1e-8]}, tsv-spectral) over `planes` planes of a
// cube; see rml::SpectralDifference. makeRegularizer builds these with one plane (a zero term:
// an MFS image has no adjacent planes).
bool isSpectralType(const std::string& type);
std::shared_ptr<rml::Regularizer> makeSpectralRegularizer(
    const project::RegularizerSettings& settings, int nx, int ny, int planes,
    const std::vector<double>& mask, std::size_t index);

// Whether proximal solvers should handle this type through its prox (non-smooth terms).
bool isNonSmoothType(const std::string& type);

}  // namespace apertura::pipeline
