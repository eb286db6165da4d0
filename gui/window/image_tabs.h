#pragma once

#include <QMap>
#include <QObject>
#include <QStringList>
#include <memory>

#include "core/engine/run_observer.h"

namespace apertura::gui {

class ImagePanel;

// The image views of a run (dirty, PSF, model, residual, restored), fed by engine snapshots. The
// window places the panels (as tabs); residuals get a diverging colormap; all share one pan/zoom
// and, for a spectral cube, one plane (each snapshot of a cube holds all its planes).
class ImageTabs : public QObject {
  Q_OBJECT

 public:
  explicit ImageTabs(QObject* parent = nullptr);

  // Panel names in display order, and their titles.
  QStringList names() const { return names_; }
  QString title(const QString& name) const { return titles_.value(name); }
  ImagePanel* panel(const QString& name) const { return panels_.value(name); }
  int snapshotsShown(const QString& name) const { return shown_.value(name); }
  void clearCounts() { shown_.clear(); }
  // Captions every image shown now as `caption` (e.g. from the previous run) until a snapshot
  // replaces it.
  void markShownAs(const QString& caption);
  // The cube plane every view shows (0 for single-plane images).
  int plane() const { return plane_; }

 public slots:
  void showSnapshot(const std::shared_ptr<const apertura::engine::ImageSnapshot>& image);
  // Shows `plane` in every view (clamped to each image's planes), as a user's choice in one view
  // does.
  void setPlane(int plane);

 signals:
  void planeChanged(int plane);

 private:
  QStringList names_;
  QMap<QString, QString> titles_;
  QMap<QString, ImagePanel*> panels_;
  QMap<QString, int> shown_;
  int plane_ = 0;
};

}  // namespace apertura::gui
