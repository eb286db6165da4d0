#pragma once

#include <QObject>

class QEvent;
class QScrollArea;
class QWidget;

namespace apertura::gui {

// Makes the mouse wheel scroll a settings panel instead of changing the combo box or spin box
// that happens to pass under the cursor (Qt's default: a user scrolling the run settings
// silently switched "Grid sums" from double to float). Inside `area`, a combo or spin box takes
// wheel steps only once it has keyboard focus (click or Tab); until then the wheel scrolls the
// area. Watches the whole application, so controls added later (plugin regularizers) are covered
// too; it is removed with `area`.
class WheelScrollsPanel final : public QObject {
 public:
  explicit WheelScrollsPanel(QScrollArea* area);
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  // The combo or spin box in the area that `w` is or belongs to (a spin box's line edit), or null.
  QWidget* valueControl(QObject* watched) const;

  QScrollArea* area_;
};

}  // namespace apertura::gui
