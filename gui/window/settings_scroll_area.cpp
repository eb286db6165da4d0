#include "gui/window/settings_scroll_area.h"

#include <QEvent>
#include <QScrollBar>

namespace apertura::gui {

SettingsScrollArea::SettingsScrollArea(QWidget* parent) : QScrollArea(parent) {
  setWidgetResizable(true);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

QSize SettingsScrollArea::minimumSizeHint() const {
  QSize hint = QScrollArea::minimumSizeHint();
  if (widget() != nullptr)
    hint.setWidth(widget()->minimumSizeHint().width() + verticalScrollBar()->sizeHint().width() +
                  2 * frameWidth());
  return hint;
}

bool SettingsScrollArea::eventFilter(QObject* watched, QEvent* event) {
  if (watched == widget() && event->type() == QEvent::LayoutRequest)
    updateGeometry();
  return QScrollArea::eventFilter(watched, event);
}

}  // namespace apertura::gui
