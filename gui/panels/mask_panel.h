#pragma once

#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

#include "core/project/project_settings.h"
#include "core/project/region_sky_grid.h"
#include "gui/view/mask_tool.h"

class QCheckBox;
class QLabel;
class QListWidget;
class QPushButton;
class QToolButton;

namespace apertura::gui {

class ImageView;

// The user mask: the drawing tools for every image view (pan, rectangle, ellipse, polygon, and a
// subtract toggle), the list of regions with delete / clear, DS9 region import and export (read
// and written off the GUI thread), and "use mask in the next run", which puts the regions into
// the run's ProjectSettings and restricts every regularizer to them. Every view outlines the
// regions. Any change to the regions or the use flag emits changed().
class MaskPanel : public QWidget {
  Q_OBJECT

 public:
  explicit MaskPanel(QWidget* parent = nullptr);

  // Draws on `view` with this panel's tool and shows the regions over it.
  void addView(ImageView* view);

  const std::vector<project::MaskRegion>& regions() const { return regions_; }
  void setRegions(std::vector<project::MaskRegion> regions);
  void addRegion(project::MaskRegion region);
  void removeRegion(int index);
  void clearRegions();

  MaskTool tool() const { return tool_; }
  void setTool(MaskTool tool);
  bool subtractMode() const;
  void setSubtractMode(bool subtract);
  bool useMask() const;
  void setUseMask(bool use);

  // With "use mask" on and regions present: s.mask = the regions and every regularizer gets
  // use_mask, so pixels outside are held at zero and terms act inside only. Otherwise unchanged.
  void applyTo(project::ProjectSettings& s) const;

  // Background DS9 I/O; ioFinished follows (ok, and a message for the status line). Export in
  // image pixels, or in fk5 (RA/Dec, arcsec) through the shown image's WCS (refused, with the
  // reason in the status line, while no image with one is shown).
  enum class RegionCoordinates { Image, Sky };
  void importRegions(const QString& path);
  // The Clear button: asks before removing every region (clearRegions() does not ask).
  void confirmClear();
  void exportRegions(const QString& path, RegionCoordinates coordinates = RegionCoordinates::Image);
  bool ioBusy() const { return io_busy_; }

  // The list's text for region `index` ("1  + rectangle  x 10.0–30.0, y 20.0–40.0").
  static QString describe(const project::MaskRegion& r, int index);
  QListWidget* list() const { return list_; }
  QString statusText() const;

 signals:
  void changed();
  void ioFinished(bool ok, const QString& message);

 private:
  void refresh();
  void setStatus(const QString& text, bool error);
  void setIoBusy(bool busy);
  std::optional<project::RegionSkyGrid> skyGrid() const;
  void chooseImport();
  void chooseExport();

  std::vector<project::MaskRegion> regions_;
  std::vector<ImageView*> views_;
  MaskTool tool_ = MaskTool::Pan;
  bool io_busy_ = false;
  QToolButton* tool_buttons_[4];
  QToolButton* subtract_;
  QListWidget* list_;
  QPushButton* delete_;
  QPushButton* clear_;
  QPushButton* import_;
  QPushButton* export_;
  QCheckBox* use_mask_;
  QLabel* status_;
};

}  // namespace apertura::gui
