#pragma once

#include "core/util/choice_names.h"

namespace apertura::rml {

// optimizer.line_search in a project file.
enum class LineSearchKind {
  Armijo,       // backtracking until sufficient decrease
  StrongWolfe,  // bracketing + zoom with safeguarded cubic interpolation (Nocedal & Wright 3.5/3.6)
  Brent,        // derivative-free minimisation along the line (bracket, then Brent's method)
  MoreThuente   // strong Wolfe with Moré & Thuente's interval updates (MINPACK-2 style)
};

}  // namespace apertura::rml

namespace apertura {
template <>
const std::vector<ChoiceName<rml::LineSearchKind>>& choiceTable<rml::LineSearchKind>();
}  // namespace apertura
