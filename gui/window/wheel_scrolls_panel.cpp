#include "gui/window/wheel_scrolls_panel.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QScrollArea>
#include <QScrollBar>

namespace apertura::gui {

WheelScrollsPanel::WheelScrollsPanel(QScrollArea* area) : QObject(area), area_(area) {
  qApp->installEventFilter(this);
  // Controls polished before this filter existed (a layout asking for size hints polishes them).
  if (QWidget* panel = area->widget()) {
    for (QWidget* w : panel->findChildren<QWidget*>()) {
      if (QWidget* control = valueControl(w))
        control->setFocusPolicy(Qt::StrongFocus);
    }
  }
}

QWidget* WheelScrollsPanel::valueControl(QObject* watched) const {
  auto* w = qobject_cast<QWidget*>(watched);
  if (w == nullptr || area_->widget() == nullptr)
    return nullptr;
  auto takesWheel = [](QWidget* c) {
    return qobject_cast<QComboBox*>(c) != nullptr || qobject_cast<QAbstractSpinBox*>(c) != nullptr;
  };
  QWidget* control = takesWheel(w)                                          ? w
                     : (w->parentWidget() && takesWheel(w->parentWidget())) ? w->parentWidget()
                                                                            : nullptr;
  return control != nullptr && area_->widget()->isAncestorOf(control) ? control : nullptr;
}

bool WheelScrollsPanel::eventFilter(QObject* watched, QEvent* event) {
  const QEvent::Type type = event->type();
  if (type != QEvent::Polish && type != QEvent::Wheel)
    return false;
  QWidget* control = valueControl(watched);
  if (control == nullptr)
    return false;
  if (type == QEvent::Polish) {
    // Qt's default (WheelFocus) would hand the control focus on the first wheel step, before
    // this filter sees the event.
    control->setFocusPolicy(Qt::StrongFocus);
    return false;
  }
  if (control->hasFocus())
    return false;
  QCoreApplication::sendEvent(area_->verticalScrollBar(), event);
  return true;
}

}  // namespace apertura::gui
