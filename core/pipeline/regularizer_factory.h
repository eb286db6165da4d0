#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/project/project_settings.h"

namespace apertura::rml {
class ObjectiveTerm;
class Regularizer;
}  // namespace apertura::rml

namespace apertura::pipeline {

// Builds a project's regularizer: a built-in one (rml/builtin_regularizers.h names them and
// their parameters) or a loaded plugin's.
// `mask` (empty: none) is applied when the settings ask for it. Throws InputError for an unknown
// type or parameter, naming regularizers[index].
std::shared_ptr<rml::Regularizer> makeRegularizer(const project::RegularizerSettings& settings,
                                                  int nx, int ny, const std::vector<double>& mask,
                                                  std::size_t index);

// An across-channel term (a built-in of TermKind::Spectral) over `planes` planes of a
// cube; see rml::SpectralDifference. makeRegularizer builds these with one plane (a zero term:
// an MFS image has no adjacent planes).
bool isSpectralType(const std::string& type);
std::shared_ptr<rml::Regularizer> makeSpectralRegularizer(
    const project::RegularizerSettings& settings, int nx, int ny, int planes,
    const std::vector<double>& mask, std::size_t index);

// The term of regularizers[index] over a cube of `planes` planes: an across-channel term coupling
// consecutive planes of settings.planes, or one term per listed plane (rml::PlaneWiseTerm); an
// empty list means every plane. Add it with TermOptions::parameters = planes.
std::shared_ptr<rml::ObjectiveTerm> makeCubeRegularizer(
    const project::RegularizerSettings& settings, int nx, int ny, int planes,
    const std::vector<double>& mask, std::size_t index);

// Refuses (InputError naming regularizers[i].planes, the index and the plane count) a plane list
// that reaches past the last plane of a cube of `planes` planes: only the data tell how many
// planes there are, so project validation cannot.
void checkRegularizerPlanes(const std::vector<project::RegularizerSettings>& regularizers,
                            int planes);

// Whether proximal solvers should handle this type through its prox (non-smooth terms).
bool isNonSmoothType(const std::string& type);

}  // namespace apertura::pipeline
