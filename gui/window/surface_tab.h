#pragma once

#include <QTimer>
#include <QWidget>

#include <memory>

#include "gui/view/iteration_stack.h"

class QComboBox;
class QLabel;
class QSlider;
class QStackedWidget;

namespace apertura::engine {
struct ImageSnapshot;
}

namespace apertura::gui {

class ImageTabs;
class RunController;
class SurfaceView;
class VolumeView;

// The "3D" tab, in two modes. Surface: one of the run's images (chosen in a combo box) as a
// surface, coloured like its 2D panel. Iteration stack: the model snapshots of the current run
// stacked along z as a ray-cast volume. Both follow the run, but only rebuild while visible and at
// most every kRefreshMs, so a running optimizer never waits on 3D geometry.
class SurfaceTab : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kRefreshMs = 250;
  enum class Mode { Surface, IterationStack, SpectralCube };

  explicit SurfaceTab(ImageTabs* images, QWidget* parent = nullptr);

  SurfaceView* view() const { return view_; }
  VolumeView* volumeView() const { return volume_; }
  const IterationStack& stack() const { return stack_; }
  // The planes of the chosen image's spectral cube as the volume shows them (SpectralCube mode).
  const IterationStack& cubeStack() const { return cube_stack_; }
  Mode mode() const;
  void setMode(Mode mode);
  // Name of the image shown ("dirty", "psf", "model", "residual", "restored").
  QString currentName() const;
  void setCurrentName(const QString& name);
  // Rebuilds the surface now when its image or colours changed (tests; normally timer-driven).
  void refreshNow();
  // Clears the iteration stack when `run` starts and stacks its model snapshots.
  void attachRun(RunController* run);

 public slots:
  // Model snapshots go on the iteration stack; other images are ignored.
  void addSnapshot(const std::shared_ptr<const apertura::engine::ImageSnapshot>& image);
  void clearStack();

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void markDirty();
  // Stacks the planes of the chosen image's cube into the volume (SpectralCube mode).
  void showCube();
  void markStackDirty();
  void scheduleRefresh();

  ImageTabs* images_;
  QComboBox* mode_choice_;
  QComboBox* image_choice_;
  QSlider* height_;
  QWidget* surface_controls_;
  QLabel* stack_info_;
  QStackedWidget* pages_;
  SurfaceView* view_;
  VolumeView* volume_;
  IterationStack stack_;
  IterationStack cube_stack_;
  QTimer refresh_;
  bool dirty_ = true;
  bool stack_dirty_ = true;
};

}  // namespace apertura::gui
