#pragma once

#include <QWidget>

#include "gui/view/image_renderer.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QToolButton;

namespace apertura::gui {

// The display controls above an image: colormap (+ invert), stretch (+ power exponent), clip
// (min/max, percentiles or a user range), fit and the histogram toggle.
class ImageToolbar : public QWidget {
  Q_OBJECT

 public:
  explicit ImageToolbar(QWidget* parent = nullptr);

  DisplaySettings settings() const { return settings_; }
  // Shows `settings` without emitting settingsChanged().
  void setSettings(const DisplaySettings& settings);
  // Shows the effective clip range in the min/max fields while a non-user clip is chosen.
  void showClipRange(ValueRange range);

  QComboBox* colormapBox() const { return colormap_; }
  QComboBox* stretchBox() const { return stretch_; }
  QComboBox* clipBox() const { return clip_; }
  QToolButton* histogramButton() const { return histogram_; }
  QLineEdit* userMinEdit() const { return user_min_; }
  QLineEdit* userMaxEdit() const { return user_max_; }

 signals:
  void settingsChanged(const apertura::gui::DisplaySettings& settings);
  void fitRequested();
  void histogramToggled(bool visible);

 private:
  void readControls();
  void updateEnabled();

  DisplaySettings settings_;
  QComboBox* colormap_;
  QCheckBox* invert_;
  QComboBox* stretch_;
  QDoubleSpinBox* exponent_;
  QComboBox* clip_;
  QLineEdit* user_min_;
  QLineEdit* user_max_;
  QToolButton* fit_;
  QToolButton* histogram_;
  bool updating_ = false;
};

}  // namespace apertura::gui
