#pragma once

#include <QPointF>
#include <QString>
#include <QWidget>

#include <memory>
#include <vector>

#include "core/project/project_settings.h"
#include "gui/view/image_data.h"
#include "gui/view/image_renderer.h"
#include "gui/view/mask_tool.h"
#include "gui/view/sky_projection.h"

namespace apertura::gui {

// Shows one image plane the way DS9/CARTA users expect: north up, east left (for a negative
// CDELT1), nearest-neighbour pixels, wheel zoom about the cursor, drag to pan, keys + - arrows and
// 'f' to fit, the clean beam in the bottom-left corner and a sky-coordinate readout.
// Plain QPainter on a cached QImage (no OpenGL), so it also runs on the offscreen platform.
//
// Mask drawing: with a mask tool other than Pan, the left button draws a region (rectangle and
// ellipse by dragging, polygon by clicking vertices and double-clicking to close; Shift or the
// subtract mode makes it subtract; Esc cancels); the middle button still pans.
//
// View geometry: `center` is the image position (0-based pixel coordinates, pixel centres on
// integers, y up) shown at the widget centre; `zoom` is screen pixels per image pixel.
class ImageView : public QWidget {
  Q_OBJECT

 public:
  explicit ImageView(QWidget* parent = nullptr);

  // Replaces the image. The view refits when the image size changes; an update of the same grid
  // (a new iteration of a model) keeps the user's zoom and pan.
  void setImage(ImageData image);
  void setImage(std::shared_ptr<const ImageData> image);
  std::shared_ptr<const ImageData> image() const { return renderer_.image(); }

  void setDisplaySettings(const DisplaySettings& settings);
  const DisplaySettings& displaySettings() const { return renderer_.settings(); }
  ImageRenderer& renderer() { return renderer_; }

  QPointF center() const { return center_; }
  double zoom() const { return zoom_; }
  // Sets the geometry (clamped so some of the image stays in view); emits viewChanged() only when
  // it changed, which is what keeps linked views from echoing each other.
  void setView(QPointF center, double zoom);
  // Whole image visible and centred; the view keeps fitting on resize until the user zooms/pans.
  void fitToWindow();
  // Multiplies the zoom keeping the image point under `widget_pos` fixed.
  void zoomAbout(QPointF widget_pos, double factor);

  QPointF imageToWidget(QPointF pixel) const;
  QPointF widgetToImage(QPointF widget_pos) const;

  // "RA Dec  (x, y)  value unit" for the pixel nearest to `pixel` (then "  frequency GHz" for a
  // cube plane); empty outside the image.
  QString cursorText(QPointF pixel) const;

  // Mask drawing (see above) and the regions outlined over the image.
  void setMaskTool(MaskTool tool);
  MaskTool maskTool() const { return mask_tool_; }
  void setMaskSubtract(bool subtract) { mask_subtract_ = subtract; }
  bool maskSubtract() const { return mask_subtract_; }
  void setMaskRegions(std::vector<project::MaskRegion> regions);
  const std::vector<project::MaskRegion>& maskRegions() const { return mask_regions_; }
  bool sketching() const { return sketch_.active(); }

  static constexpr double kMinZoom = 1.0 / 64.0;
  static constexpr double kMaxZoom = 256.0;

 signals:
  void viewChanged(QPointF center, double zoom);
  void cursorInfo(const QString& text);
  // The picture or its value scale changed (new data, colormap, stretch or clip).
  void displayChanged();
  // A mask region was drawn (image pixel coordinates); the owner of the mask adds it.
  void maskRegionDrawn(const apertura::project::MaskRegion& region);

 protected:
  bool event(QEvent* event) override;
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  void applyView(QPointF center, double zoom, bool user_action);
  double fitZoom() const;
  void restoreCursor();

  ImageRenderer renderer_;
  SkyProjection projection_;
  QPointF center_{0.0, 0.0};
  double zoom_ = 1.0;
  bool fit_mode_ = true;
  bool dragging_ = false;
  QPointF last_drag_pos_;
  MaskTool mask_tool_ = MaskTool::Pan;
  bool mask_subtract_ = false;
  MaskSketch sketch_;
  std::vector<project::MaskRegion> mask_regions_;
};

}  // namespace apertura::gui
