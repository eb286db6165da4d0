#pragma once

#include <QLineEdit>
#include <optional>

namespace apertura::gui {

// An angle field that may be automatic: empty or "auto", or a number with a unit as astronomers
// type it ("0.05", "0.05 arcsec", "2 mas", "5 uas", "5 µas"; core/util/angle_text.h). Values are
// shown in the unit that keeps them readable; an automatic field shows, greyed, the value the run
// will use when it is known.
class AngleEdit : public QLineEdit {
  Q_OBJECT

 public:
  // `label`: the field's name in messages ("Cell").
  explicit AngleEdit(const QString& label, QWidget* parent = nullptr);

  // The angle in arcsec (none: auto). False, with the field marked, its tooltip and `error`
  // saying why, when the text is neither auto nor an angle > 0.
  bool angle(std::optional<double>& arcsec, QString* error);
  // Shows `arcsec` (none: auto) without rounding it away.
  void setAngle(const std::optional<double>& arcsec);
  // The value "auto" stands for (none: not known yet, e.g. no data set).
  void setAutoAngle(const std::optional<double>& arcsec);

 private:
  QString label_;
  QString tooltip_;
};

}  // namespace apertura::gui
