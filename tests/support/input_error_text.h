#pragma once

#include <QString>

#include "core/util/input_error.h"

namespace apertura::testing {

// The text of the InputError that f() throws, or an empty string when it throws none.
template <typename F>
QString inputErrorOf(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace apertura::testing
