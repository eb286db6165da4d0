#include "gui/panels/plane_list_edit.h"

#include <QHBoxLayout>

#include "core/project/plane_list.h"
#include "core/util/input_error.h"

namespace apertura::gui {

PlaneListEdit::PlaneListEdit(const QString& what, QWidget* parent)
    : QLineEdit(parent),
      what_(what),
      tooltip_(tr("Cube planes the term acts on, 0-based: e.g. \"0-3, 7\"; empty: every plane. "
                  "Across-plane terms couple consecutive listed planes.")) {
  setPlaceholderText(tr("all planes"));
  setToolTip(tooltip_);
  setMaximumWidth(110);
}

void PlaneListEdit::setPlanes(const std::vector<int>& planes) {
  setText(QString::fromStdString(project::formatPlaneList(planes)));
  setStyleSheet(QString());  // a list that parses replaces whatever was marked
  setToolTip(tooltip_);
}

bool PlaneListEdit::planes(std::vector<int>& out, QString* error) {
  try {
    out = project::parsePlaneList(text().toStdString(), what_.toStdString());
  } catch (const InputError& e) {
    setStyleSheet("background: #ffd6d6");
    setToolTip(QString::fromStdString(e.what()));
    if (error)
      *error = QString::fromStdString(e.what());
    return false;
  }
  setStyleSheet(QString());
  setToolTip(tooltip_);
  return true;
}

QWidget* lambdaWithPlanes(QLineEdit* lambda, PlaneListEdit* planes, QWidget* parent) {
  auto* row = new QWidget(parent);
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(lambda, 1);
  layout->addWidget(planes);
  return row;
}

}  // namespace apertura::gui
