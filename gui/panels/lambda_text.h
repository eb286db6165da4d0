#pragma once

#include <QString>
#include <optional>

namespace apertura::gui {

// A regularizer's λ in a line edit: a number, or "auto" (chosen by regularization.method).
QString lambdaText(const std::optional<double>& lambda);

// The edit's text as a λ: *ok false when it is neither a number nor "auto" (any case).
std::optional<double> parseLambda(const QString& text, bool* ok);

}  // namespace apertura::gui
