#pragma once

#include <QWidget>

#include <memory>

#include "gui/view/image_data.h"
#include "gui/view/image_renderer.h"

class QLabel;

namespace apertura::gui {

class ColorbarWidget;
class HistogramWidget;
class ImageToolbar;
class ImageView;

// One image with everything needed to read it: display toolbar, the view, a colour bar with
// units, a cursor readout line and an optional histogram of the pixel values.
class ImagePanel : public QWidget {
  Q_OBJECT

 public:
  explicit ImagePanel(QWidget* parent = nullptr);

  void setImage(ImageData image);
  void setDisplaySettings(const DisplaySettings& settings);
  DisplaySettings displaySettings() const;
  void setHistogramVisible(bool visible);

  ImageView* view() const { return view_; }
  ColorbarWidget* colorbar() const { return colorbar_; }
  HistogramWidget* histogram() const { return histogram_; }
  ImageToolbar* toolbar() const { return toolbar_; }
  QString statusText() const;

 private:
  void refreshScale();
  void refreshSamples();

  ImageToolbar* toolbar_;
  ImageView* view_;
  ColorbarWidget* colorbar_;
  HistogramWidget* histogram_;
  QLabel* status_;
  std::weak_ptr<const ImageData> samples_source_;  // image whose samples the histogram holds
};

}  // namespace apertura::gui
