#pragma once

#include <QLineEdit>
#include <vector>

namespace apertura::gui {

// The cube planes a regularizer acts on (RegularizerSettings::planes) as text: "0-3, 7", or
// empty for every plane (project::parsePlaneList / formatPlaneList). A text that does not parse
// is marked and its problem shown in the tooltip.
class PlaneListEdit : public QLineEdit {
  Q_OBJECT

 public:
  // `what` names the field in error messages (e.g. "l1 planes").
  explicit PlaneListEdit(const QString& what, QWidget* parent = nullptr);

  // Shows `planes` (empty: every plane).
  void setPlanes(const std::vector<int>& planes);
  // The planes typed; false (field marked, `error` set when given) when the text does not parse.
  // Not const: it marks or unmarks the field.
  bool planes(std::vector<int>& out, QString* error);

 private:
  QString what_;
  QString tooltip_;
};

// A λ field with a planes field to its right, as one form row's field.
QWidget* lambdaWithPlanes(QLineEdit* lambda, PlaneListEdit* planes, QWidget* parent = nullptr);

}  // namespace apertura::gui
