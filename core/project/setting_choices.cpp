#include "core/project/setting_choices.h"

#include "core/project/project_settings.h"

namespace apertura {

template <>
const std::vector<ChoiceName<project::Precision>>& choiceTable<project::Precision>() {
  static const std::vector<ChoiceName<project::Precision>> t = {
      {project::Precision::Double, "double"}, {project::Precision::Float, "float"}};
  return t;
}

template <>
const std::vector<ChoiceName<project::SpectralMode>>& choiceTable<project::SpectralMode>() {
  static const std::vector<ChoiceName<project::SpectralMode>> t = {
      {project::SpectralMode::Mfs, "mfs"}, {project::SpectralMode::Cube, "cube"}};
  return t;
}

template <>
const std::vector<ChoiceName<project::MfsSpectrum>>& choiceTable<project::MfsSpectrum>() {
  static const std::vector<ChoiceName<project::MfsSpectrum>> t = {
      {project::MfsSpectrum::Flat, "flat"},
      {project::MfsSpectrum::Linear, "linear"},
      {project::MfsSpectrum::Auto, "auto"}};
  return t;
}

template <>
const std::vector<ChoiceName<project::OptimizerMethod>>& choiceTable<project::OptimizerMethod>() {
  using M = project::OptimizerMethod;
  static const std::vector<ChoiceName<M>> t = {
      {M::Lbfgs, "lbfgs"}, {M::CgFr, "cg-fr"}, {M::CgPr, "cg-pr"},  {M::CgHs, "cg-hs"},
      {M::CgDy, "cg-dy"},  {M::CgHz, "cg-hz"}, {M::Fista, "fista"}, {M::Sdmm, "sdmm"}};
  return t;
}

template <>
const std::vector<ChoiceName<project::Positivity>>& choiceTable<project::Positivity>() {
  static const std::vector<ChoiceName<project::Positivity>> t = {
      {project::Positivity::None, "none"},
      {project::Positivity::Projection, "projection"},
      {project::Positivity::Softplus, "softplus"},
      {project::Positivity::Log, "log"}};
  return t;
}

template <>
const std::vector<ChoiceName<project::ObjectiveScaling>>& choiceTable<project::ObjectiveScaling>() {
  static const std::vector<ChoiceName<project::ObjectiveScaling>> t = {
      {project::ObjectiveScaling::Normalised, "normalised"},
      {project::ObjectiveScaling::None, "none"}};
  return t;
}

template <>
const std::vector<ChoiceName<project::LambdaMethod>>& choiceTable<project::LambdaMethod>() {
  static const std::vector<ChoiceName<project::LambdaMethod>> t = {
      {project::LambdaMethod::Cv, "cv"}, {project::LambdaMethod::Discrepancy, "discrepancy"}};
  return t;
}

}  // namespace apertura

namespace apertura::project {

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
