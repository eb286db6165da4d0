#include "gui/panels/angle_edit.h"

#include "core/util/angle_text.h"

namespace apertura::gui {

AngleEdit::AngleEdit(const QString& label, QWidget* parent)
    : QLineEdit(parent),
      label_(label),
      tooltip_(tr("%1: auto, or an angle with a unit: 0.05 arcsec (a number alone is arcsec), "
                  "2 mas, 5 µas (or uas), 1 arcmin")
                   .arg(label)) {
  setToolTip(tooltip_);
  setAutoAngle(std::nullopt);
}

bool AngleEdit::angle(std::optional<double>& arcsec, QString* error) {
  const QString t = text().trimmed();
  arcsec.reset();
  QString problem;
  if (!t.isEmpty() && t.compare("auto", Qt::CaseInsensitive) != 0) {
    const std::optional<double> a = parseAngleArcsec(t.toStdString());
    if (!a)
      problem = tr("%1: '%2' is not an angle; type e.g. 0.05 arcsec, 2 mas, 5 µas, or auto")
                    .arg(label_, t);
    else if (!(*a > 0.0))
      problem = tr("%1 must be an angle > 0, or auto").arg(label_);
    else
      arcsec = a;
  }
  if (!problem.isEmpty()) {
    setStyleSheet("background: #ffd6d6");
    setToolTip(problem);
    if (error)
      *error = problem;
    return false;
  }
  setStyleSheet(QString());
  setToolTip(tooltip_);
  return true;
}

void AngleEdit::setAngle(const std::optional<double>& arcsec) {
  // Nine digits: what the project holds comes back from the text unchanged.
  setText(arcsec ? QString::fromStdString(formatAngleArcsec(*arcsec, 9)) : QString());
}

void AngleEdit::setAutoAngle(const std::optional<double>& arcsec) {
  setPlaceholderText(arcsec
                         ? tr("auto (%1)").arg(QString::fromStdString(formatAngleArcsec(*arcsec)))
                         : tr("auto"));
}

}  // namespace apertura::gui
