#pragma once

#include <QString>

class QWidget;

namespace apertura::gui {

// Renders a top-level window (OpenGL children included) to an image file, atomically.
bool saveWindowScreenshot(QWidget& window, const QString& path, QString* error);

}  // namespace apertura::gui
