#include "gui/panels/lambda_text.h"

namespace apertura::gui {

QString lambdaText(const std::optional<double>& lambda) {
  return lambda ? QString::number(*lambda) : QStringLiteral("auto");
}

std::optional<double> parseLambda(const QString& text, bool* ok) {
  const QString t = text.trimmed();
  if (t.compare(QStringLiteral("auto"), Qt::CaseInsensitive) == 0) {
    *ok = true;
    return std::nullopt;
  }
  const double v = t.toDouble(ok);
  return *ok ? std::optional<double>(v) : std::optional<double>(0.0);
}

}  // namespace apertura::gui
