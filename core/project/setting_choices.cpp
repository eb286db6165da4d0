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
const std::vector<ChoiceName<project::OperatorMode>>& choiceTable<project::OperatorMode>() {
  static const std::vector<ChoiceName<project::OperatorMode>> t = {
      {project::OperatorMode::Auto, "auto"},
      {project::OperatorMode::Visibilities, "visibilities"},
      {project::OperatorMode::Psf, "psf"}};
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

std::string describeChoice(OptimizerMethod method) {
  switch (method) {
    case OptimizerMethod::Lbfgs:
      return "L-BFGS: quasi-Newton from the last gradient pairs (optimizer.history); the default, "
             "fastest on smooth objectives";
    case OptimizerMethod::CgFr:
      return "Nonlinear conjugate gradient, Fletcher-Reeves update: little memory, can stall on "
             "ill-conditioned images";
    case OptimizerMethod::CgPr:
      return "Nonlinear conjugate gradient, Polak-Ribiere+ update: restarts itself when progress "
             "stalls";
    case OptimizerMethod::CgHs:
      return "Nonlinear conjugate gradient, Hestenes-Stiefel update";
    case OptimizerMethod::CgDy:
      return "Nonlinear conjugate gradient, Dai-Yuan update: descends with weak line searches";
    case OptimizerMethod::CgHz:
      return "Nonlinear conjugate gradient, Hager-Zhang update (CG_DESCENT): robust with inexact "
             "line searches";
    case OptimizerMethod::Fista:
      return "FISTA: accelerated proximal gradient; non-smooth terms (L1, TV) go through their "
             "prox, so the model has exact zeros";
    case OptimizerMethod::Sdmm:
      return "SDMM: splits the objective into its terms, each by its prox; several non-smooth "
             "terms at once";
    case OptimizerMethod::Plugin:
      break;
  }
  return {};
}

std::string describeChoice(Positivity positivity) {
  switch (positivity) {
    case Positivity::None:
      return "No constraint: the model may go negative (fits noise and sidelobes with negative "
             "flux)";
    case Positivity::Projection:
      return "Clip at zero after each step: exact zeros, the default";
    case Positivity::Softplus:
      return "Image = softplus(x): smooth and positive, never exactly zero";
    case Positivity::Log:
      return "Image = exp(x): positive, suits images spanning many decades of brightness";
  }
  return {};
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
