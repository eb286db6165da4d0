#pragma once

#include <optional>
#include <string>
#include <vector>

namespace apertura {

// The words for the values of a choice (an enum class): its name table, declared as a
// specialisation of choiceTable<E>() beside the enum and defined once in its module. Project
// files, command lines, error messages, logs and the GUI's combo boxes all read that one table.
template <typename E>
struct ChoiceName {
  E value;
  const char* name;
};

template <typename E>
const std::vector<ChoiceName<E>>& choiceTable();

// The value's name ("" for a value without one).
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

}  // namespace apertura
