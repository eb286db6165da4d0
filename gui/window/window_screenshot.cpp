#include "gui/window/window_screenshot.h"

#include <QFileInfo>
#include <QPixmap>
#include <QSaveFile>
#include <QWidget>

namespace apertura::gui {

bool saveWindowScreenshot(QWidget& window, const QString& path, QString* error) {
  // QWidget::grab() paints every child, the 3D views included (they paint their last frame).
  const QPixmap pixmap = window.grab();
  const QString format = QFileInfo(path).suffix().isEmpty() ? "PNG" : QFileInfo(path).suffix();
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || !pixmap.save(&file, qPrintable(format.toUpper())) ||
      !file.commit()) {
    if (error)
      *error = QStringLiteral("%1: could not write screenshot (%2)").arg(path, file.errorString());
    return false;
  }
  return true;
}

}  // namespace apertura::gui
