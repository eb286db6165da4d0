#pragma once

#include <QWidget>
#include <memory>

namespace apertura::pipeline {
struct ImagingProducts;
}

class QLabel;
class QSlider;

namespace apertura::gui {

class ImagePanel;

// The models along a run's automatic-λ path (ImagingProducts::lambda_path), one step at a time: a
// slider over the steps from the strongest λ to the weakest, a caption saying what the shown
// model is (on a cv path the mean of the folds' models, each fit on the other folds' samples),
// and the image. The run's products stay alive while the tab shows them.
class PathModelsTab : public QWidget {
  Q_OBJECT

 public:
  explicit PathModelsTab(QWidget* parent = nullptr);

  // A finished (or stopped) run's products; a run without a path clears the tab.
  void setProducts(std::shared_ptr<const apertura::pipeline::ImagingProducts> products);
  void clear();
  // Shows path step `step` (clamped to the path). False, with the reason in the caption and an
  // empty view, when the step's model was not kept (the path's memory budget).
  bool showStep(int step);

  int step() const;  // -1 without a path
  int stepCount() const;
  QString caption() const;
  QSlider* slider() const { return slider_; }
  ImagePanel* panel() const { return panel_; }

 private:
  QSlider* slider_;
  QLabel* caption_;
  ImagePanel* panel_;
  std::shared_ptr<const apertura::pipeline::ImagingProducts> products_;
};

}  // namespace apertura::gui
