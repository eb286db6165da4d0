#pragma once

#include <QWidget>

#include <vector>

class QLabel;
class QSlider;
class QSpinBox;

namespace apertura::gui {

// Picks the plane (channel) of a spectral cube an image view shows: a slider and a spin box over
// the plane numbers (0-based, as the BEAMS table of a CASA cube counts them) and the plane's
// frequency in GHz. Hidden while the image has one plane.
class PlaneSelector : public QWidget {
  Q_OBJECT

 public:
  explicit PlaneSelector(QWidget* parent = nullptr);

  // Planes 0 .. count - 1 with their frequencies (Hz; may be empty or shorter: unknown). Keeps
  // the current plane when it still exists, else shows the last one. Emits nothing.
  void setPlanes(int count, std::vector<double> frequencies_hz);
  // Shows plane k (clamped). Emits nothing: planeChosen() is for the user's choices only, which
  // keeps linked selectors from echoing each other.
  void setPlane(int k);
  int plane() const;
  int count() const { return count_; }
  // "224.031250 GHz", or empty when the plane's frequency is unknown.
  QString frequencyText() const;

  QSlider* slider() const { return slider_; }
  QSpinBox* spinBox() const { return spin_; }
  QLabel* frequencyLabel() const { return frequency_; }

  static QString formatGhz(double frequency_hz);

 signals:
  void planeChosen(int plane);

 private:
  void show(int k, bool user);

  QSlider* slider_;
  QSpinBox* spin_;
  QLabel* total_;
  QLabel* frequency_;
  int count_ = 0;
  std::vector<double> frequencies_hz_;
  bool updating_ = false;
};

}  // namespace apertura::gui
