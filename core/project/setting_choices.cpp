#include "core/project/setting_choices.h"

#include "core/project/project_settings.h"

namespace apertura::project {

template <>
const std::vector<ChoiceName<ReadMode>>& choiceTable<ReadMode>() {
  static const std::vector<ChoiceName<ReadMode>> t = {{ReadMode::kAuto, "auto"},
                                                      {ReadMode::kResident, "resident"},
                                                      {ReadMode::kStreaming, "streaming"}};
  return t;
}

template <>
const std::vector<ChoiceName<imaging::WeightingScheme>>& choiceTable<imaging::WeightingScheme>() {
  using imaging::WeightingScheme;
  static const std::vector<ChoiceName<WeightingScheme>> t = {{WeightingScheme::Natural, "natural"},
                                                             {WeightingScheme::Uniform, "uniform"},
                                                             {WeightingScheme::Briggs, "briggs"},
                                                             {WeightingScheme::Radial, "radial"}};
  return t;
}

template <>
const std::vector<ChoiceName<imaging::KernelType>>& choiceTable<imaging::KernelType>() {
  using imaging::KernelType;
  static const std::vector<ChoiceName<KernelType>> t = {{KernelType::ExpSemicircle, "es"},
                                                        {KernelType::KaiserBessel, "kaiser-bessel"},
                                                        {KernelType::Prolate, "pswf"},
                                                        {KernelType::Pillbox, "pillbox"}};
  return t;
}

template <>
const std::vector<ChoiceName<Backend>>& choiceTable<Backend>() {
  static const std::vector<ChoiceName<Backend>> t = {
      {Backend::Auto, "auto"}, {Backend::Cpu, "cpu"}, {Backend::Cuda, "cuda"}};
  return t;
}

template <>
const std::vector<ChoiceName<Precision>>& choiceTable<Precision>() {
  static const std::vector<ChoiceName<Precision>> t = {{Precision::Double, "double"},
                                                       {Precision::Float, "float"}};
  return t;
}

template <>
const std::vector<ChoiceName<SpectralMode>>& choiceTable<SpectralMode>() {
  static const std::vector<ChoiceName<SpectralMode>> t = {{SpectralMode::Mfs, "mfs"},
                                                          {SpectralMode::Cube, "cube"}};
  return t;
}

template <>
const std::vector<ChoiceName<OptimizerMethod>>& choiceTable<OptimizerMethod>() {
  using M = OptimizerMethod;
  static const std::vector<ChoiceName<M>> t = {
      {M::Lbfgs, "lbfgs"}, {M::CgFr, "cg-fr"}, {M::CgPr, "cg-pr"},  {M::CgHs, "cg-hs"},
      {M::CgDy, "cg-dy"},  {M::CgHz, "cg-hz"}, {M::Fista, "fista"}, {M::Sdmm, "sdmm"}};
  return t;
}

template <>
const std::vector<ChoiceName<rml::LineSearchKind>>& choiceTable<rml::LineSearchKind>() {
  using rml::LineSearchKind;
  static const std::vector<ChoiceName<LineSearchKind>> t = {
      {LineSearchKind::Armijo, "armijo"},
      {LineSearchKind::StrongWolfe, "wolfe"},
      {LineSearchKind::MoreThuente, "more-thuente"},
      {LineSearchKind::Brent, "brent"}};
  return t;
}

template <>
const std::vector<ChoiceName<Positivity>>& choiceTable<Positivity>() {
  static const std::vector<ChoiceName<Positivity>> t = {{Positivity::None, "none"},
                                                        {Positivity::Projection, "projection"},
                                                        {Positivity::Softplus, "softplus"},
                                                        {Positivity::Log, "log"}};
  return t;
}

bool isConjugateGradient(OptimizerMethod method) {
  switch (method) {
    case OptimizerMethod::CgFr:
    case OptimizerMethod::CgPr:
    case OptimizerMethod::CgHs:
    case OptimizerMethod::CgDy:
    case OptimizerMethod::CgHz:
      return true;
    default:
      return false;
  }
}

bool isProximal(OptimizerMethod method) {
  return method == OptimizerMethod::Fista || method == OptimizerMethod::Sdmm;
}

std::string OptimizerSettings::methodName() const {
  return method == OptimizerMethod::Plugin ? plugin_method : choiceName(method);
}

void OptimizerSettings::setMethod(const std::string& name) {
  const auto builtin = parseChoice<OptimizerMethod>(name);
  method = builtin.value_or(OptimizerMethod::Plugin);
  plugin_method = builtin ? std::string() : name;
}

}  // namespace apertura::project
