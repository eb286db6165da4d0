#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/imaging/backend_kind.h"
#include "core/imaging/kernel.h"
#include "core/imaging/weighting_scheme.h"
#include "core/io/read_mode.h"
#include "core/rml/line_search_kind.h"

namespace apertura::project {

// Every choice a project file offers is an enum inside core; its text exists only in the name
// table below, which the JSON reader and writer, validation, the reference and the GUI's combo
// boxes all read. Choices that core already names (kernels, weighting, line searches, read modes)
// reuse those enums.

using imaging::Backend;
enum class Precision { Float, Double };
// mfs: one image of every selected channel; cube: one plane per group of channels.
enum class SpectralMode { Mfs, Cube };
// Plugin: an optimizer of a loaded plugin, named by OptimizerSettings::plugin_method.
enum class OptimizerMethod { Lbfgs, CgFr, CgPr, CgHs, CgDy, CgHz, Fista, Sdmm, Plugin };
enum class Positivity { None, Projection, Softplus, Log };

template <typename E>
struct ChoiceName {
  E value;
  const char* name;
};

// The name table of each choice, in the order lists show them. OptimizerMethod::Plugin has no
// entry: its name is the plugin's.
template <typename E>
const std::vector<ChoiceName<E>>& choiceTable();
template <>
const std::vector<ChoiceName<ReadMode>>& choiceTable<ReadMode>();
template <>
const std::vector<ChoiceName<imaging::WeightingScheme>>& choiceTable<imaging::WeightingScheme>();
template <>
const std::vector<ChoiceName<imaging::KernelType>>& choiceTable<imaging::KernelType>();
template <>
const std::vector<ChoiceName<Backend>>& choiceTable<Backend>();
template <>
const std::vector<ChoiceName<Precision>>& choiceTable<Precision>();
template <>
const std::vector<ChoiceName<SpectralMode>>& choiceTable<SpectralMode>();
template <>
const std::vector<ChoiceName<OptimizerMethod>>& choiceTable<OptimizerMethod>();
template <>
const std::vector<ChoiceName<rml::LineSearchKind>>& choiceTable<rml::LineSearchKind>();
template <>
const std::vector<ChoiceName<Positivity>>& choiceTable<Positivity>();

// The value's name in project files ("" for a value without one, e.g. OptimizerMethod::Plugin).
template <typename E>
std::string choiceName(E value) {
  for (const auto& c : choiceTable<E>())
    if (c.value == value)
      return c.name;
  return {};
}

template <typename E>
std::optional<E> parseChoice(const std::string& name) {
  for (const auto& c : choiceTable<E>())
    if (name == c.name)
      return c.value;
  return std::nullopt;
}

template <typename E>
std::vector<std::string> choiceNames() {
  std::vector<std::string> names;
  for (const auto& c : choiceTable<E>())
    names.emplace_back(c.name);
  return names;
}

// "a, b, c": the names for error messages and the reference.
template <typename E>
std::string choiceList() {
  std::string list;
  for (const auto& c : choiceTable<E>())
    list += (list.empty() ? "" : ", ") + std::string(c.name);
  return list;
}

bool isConjugateGradient(OptimizerMethod method);
// Proximal methods take non-smooth terms through their prox (FISTA, SDMM).
bool isProximal(OptimizerMethod method);

}  // namespace apertura::project
