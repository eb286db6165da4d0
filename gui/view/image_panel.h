#pragma once

#include <QWidget>

#include <memory>

#include "gui/view/image_cube.h"
#include "gui/view/image_data.h"
#include "gui/view/image_renderer.h"

class QLabel;

namespace apertura::gui {

class ColorbarWidget;
class HistogramWidget;
class ImageToolbar;
class ImageView;
class PlaneSelector;

// One image with everything needed to read it: display toolbar, the view, a colour bar with
// units, a cursor readout line and an optional histogram of the pixel values. A spectral cube
// gets a plane selector: the view shows one plane (its own colour clip and beam) at a time.
class ImagePanel : public QWidget {
  Q_OBJECT

 public:
  explicit ImagePanel(QWidget* parent = nullptr);

  // A single-plane image; an empty ImageData clears the panel.
  void setImage(ImageData image);
  // An image of one or more planes: the view shows the chosen plane (see setPlane).
  void setImage(ImageCube cube);
  // The plane shown (0 for a single-plane image) and how many the image has (0: no image).
  int plane() const;
  int planeCount() const;
  // The image's planes when it has several (empty otherwise), for the 3D tab's cube volume.
  const ImageCube& cube() const { return cube_; }
  // Chooses the plane to show, now and for later images (clamped to each image's planes). Emits
  // nothing; planeChanged() reports the user's choices in the selector.
  void setPlane(int plane);
  void setDisplaySettings(const DisplaySettings& settings);
  DisplaySettings displaySettings() const;
  void setHistogramVisible(bool visible);

  ImageView* view() const { return view_; }
  ColorbarWidget* colorbar() const { return colorbar_; }
  HistogramWidget* histogram() const { return histogram_; }
  ImageToolbar* toolbar() const { return toolbar_; }
  PlaneSelector* planeSelector() const { return planes_; }
  QString statusText() const;
  // A line above the image saying where it comes from when that is not the current run (e.g.
  // "Previous run"); empty hides it.
  void setCaption(const QString& caption);
  QString caption() const;

 signals:
  void planeChanged(int plane);

 private:
  void showPlane();
  void refreshScale();
  void refreshSamples();

  ImageToolbar* toolbar_;
  PlaneSelector* planes_;
  ImageView* view_;
  ColorbarWidget* colorbar_;
  HistogramWidget* histogram_;
  QLabel* status_;
  QLabel* caption_;
  std::weak_ptr<const ImageData> samples_source_;  // image whose samples the histogram holds
  ImageCube cube_;        // the image when it has several planes, else empty
  int wanted_plane_ = 0;  // the plane chosen (the selector or linked views)
};

}  // namespace apertura::gui
