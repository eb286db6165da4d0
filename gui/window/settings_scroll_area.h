#pragma once

#include <QScrollArea>

namespace apertura::gui {

// A vertical-only scroll area: never narrower than its widget's minimum width (plus the vertical
// scroll bar), so the settings scroll up and down but never sideways, whatever the window's width
// and however the widget's minimum grows (fonts, plugin terms, the data set's choices).
class SettingsScrollArea : public QScrollArea {
 public:
  explicit SettingsScrollArea(QWidget* parent = nullptr);
  QSize minimumSizeHint() const override;

 protected:
  // The widget's minimum changes with its contents: the dock learns it at once.
  bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace apertura::gui
