#pragma once

#include <QTimer>
#include <QWidget>

class QComboBox;
class QSlider;

namespace apertura::gui {

class ImageTabs;
class SurfaceView;

// The "3D" tab: one of the run's images (chosen in a combo box) as a surface, coloured like its
// 2D panel. It follows new snapshots and display changes of that panel, but only rebuilds while
// visible and at most every kRefreshMs, so a running optimizer never waits on 3D geometry.
class SurfaceTab : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kRefreshMs = 250;

  explicit SurfaceTab(ImageTabs* images, QWidget* parent = nullptr);

  SurfaceView* view() const { return view_; }
  // Name of the image shown ("dirty", "psf", "model", "residual", "restored").
  QString currentName() const;
  void setCurrentName(const QString& name);
  // Rebuilds the surface now when its image or colours changed (tests; normally timer-driven).
  void refreshNow();

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void markDirty();

  ImageTabs* images_;
  QComboBox* image_choice_;
  QSlider* height_;
  SurfaceView* view_;
  QTimer refresh_;
  bool dirty_ = true;
};

}  // namespace apertura::gui
