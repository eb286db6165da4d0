#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace apertura::rml {

class Regularizer;

// How the solvers treat a term: differentiable terms join the smooth part; proximal solvers
// (FISTA, SDMM) take non-smooth ones through their prox; spectral terms couple adjacent planes of
// a cube.
enum class TermKind { Smooth, NonSmooth, Spectral };

// A term parameter, as the plugin API describes plugins' (AperturaParameterV1), plus an open lower
// bound for parameters that must be positive.
struct ParameterSpec {
  std::string name;  // key in the project file's "parameters" object
  double default_value = 0.0;
  double min_value = 0.0;
  double max_value = 0.0;
  bool min_open = false;  // min_value itself refused
  std::string description;
};

// How a term is made dimensionless in the normalised objective (rml/objective_scales.h): it is
// multiplied by beam_area^beam_power / (N sigma^flux_power), where N is the number of samples,
// sigma the natural-weighted image noise (Jy/beam) and beam_area the clean beam's area in pixels.
// flux_power is the term's degree in the image (1: L1, TV; 2: TSV, L2); beam_power makes it
// independent of the cell at a fixed field of view (each image difference adds 1/2).
struct TermNormalisation {
  int flux_power = 1;
  double beam_power = 0.0;
};

// A built-in regularizer describes itself: the factory, the plugin registry (names plugins may
// not take), validation, the memory estimate and the reference all read this one table.
struct RegularizerDescriptor {
  std::string name;  // type in project files
  std::string description;
  TermKind kind = TermKind::Smooth;
  std::vector<ParameterSpec> parameters;
  // Image-sized vectors its prox keeps in FISTA (the dual fields of TV), for the memory estimate.
  int prox_vectors = 0;
  // The term on nx x ny pixels (planes: the cube's, for spectral terms; 1 otherwise), with
  // parameter values in the order of `parameters`.
  std::function<std::shared_ptr<Regularizer>(int nx, int ny, int planes,
                                             const std::vector<double>& values)>
      make;
  TermNormalisation normalisation;
};

const std::vector<RegularizerDescriptor>& builtinRegularizers();
// Null for a type that is not built in.
const RegularizerDescriptor* findBuiltinRegularizer(const std::string& type);

// The parameter values for a term: defaults, replaced by the `given` ones. Throws InputError naming
// `at`.parameters.KEY for an unknown key or a value outside the range.
std::vector<double> builtinParameterValues(const RegularizerDescriptor& descriptor,
                                           const std::map<std::string, double>& given,
                                           const std::string& at);

}  // namespace apertura::rml
