#pragma once

#include <string>

#include "core/imaging/backend_kind.h"
#include "core/imaging/kernel.h"
#include "core/imaging/weighting_scheme.h"
#include "core/io/read_mode.h"
#include "core/rml/line_search_kind.h"

namespace apertura::project {

// Every choice a project file offers is an enum inside core; its text exists only in its name
// table (util/choice_names.h), which the JSON reader and writer, validation, the reference and
// the GUI's combo boxes all read. Choices that core already names (kernels, weighting, backends,
// line searches, read modes) reuse those enums and the tables beside them.

using imaging::Backend;
enum class Precision { Float, Double };
// mfs: one image of every selected channel; cube: one plane per group of channels.
enum class SpectralMode { Mfs, Cube };
// The spectrum of an MFS model: flat (one image for every channel) or linear in frequency across
// the band (the sky at the lowest and the highest imaged frequency, as nterms 2); auto: linear
// when the imaged channels span at least 5 % of their mean frequency.
enum class MfsSpectrum { Flat, Linear, Auto };
// How the optimizer evaluates chi2: visibilities (a degridding and a gridding pass over every
// sample per evaluation) or psf (chi2's Hessian as a convolution with the PSF: two FFTs of an
// image twice the size per evaluation, whatever the number of visibilities; rml/psf_chi2_term.h);
// auto: psf wherever it applies (MFS, no w-stacking, host images) and fits the memory budget.
enum class OperatorMode { Auto, Visibilities, Psf };
// Plugin: an optimizer of a loaded plugin, named by OptimizerSettings::plugin_method.
enum class OptimizerMethod { Lbfgs, CgFr, CgPr, CgHs, CgDy, CgHz, Fista, Sdmm, Plugin };
enum class Positivity { None, Projection, Softplus, Log };
// normalised: reduced chi-squared and dimensionless lambdas (rml/objective_scales.h); none: the
// schema-1 objective chi2 + sum lambda R, kept for files written before schema 2.
enum class ObjectiveScaling { Normalised, None };
// How "lambda": "auto" is chosen: cv (k-fold cross-validation on uv cells: the lambda whose fits
// predict held-out visibilities best) or discrepancy (the strongest lambda whose fit reaches the
// noise).
enum class LambdaMethod { Cv, Discrepancy };

// The tables of the choices project files add; the others live beside their enums.
using apertura::choiceList;
using apertura::ChoiceName;
using apertura::choiceName;
using apertura::choiceNames;
using apertura::choiceTable;
using apertura::parseChoice;

bool isConjugateGradient(OptimizerMethod method);
// One line on what each method and positivity setting does and when to choose it (the GUI's
// tooltips; "" for Plugin, which its plugin describes).
std::string describeChoice(OptimizerMethod method);
std::string describeChoice(Positivity positivity);
// Proximal methods take non-smooth terms through their prox (FISTA, SDMM).
bool isProximal(OptimizerMethod method);

}  // namespace apertura::project

namespace apertura {
template <>
const std::vector<ChoiceName<project::Precision>>& choiceTable<project::Precision>();
template <>
const std::vector<ChoiceName<project::SpectralMode>>& choiceTable<project::SpectralMode>();
template <>
const std::vector<ChoiceName<project::MfsSpectrum>>& choiceTable<project::MfsSpectrum>();
template <>
const std::vector<ChoiceName<project::OperatorMode>>& choiceTable<project::OperatorMode>();
template <>
const std::vector<ChoiceName<project::OptimizerMethod>>& choiceTable<project::OptimizerMethod>();
template <>
const std::vector<ChoiceName<project::Positivity>>& choiceTable<project::Positivity>();
template <>
const std::vector<ChoiceName<project::ObjectiveScaling>>& choiceTable<project::ObjectiveScaling>();
template <>
const std::vector<ChoiceName<project::LambdaMethod>>& choiceTable<project::LambdaMethod>();
}  // namespace apertura
