#pragma once

#include <QImage>

#include <memory>

class QOpenGLContext;
class QOpenGLFramebufferObject;
class vtkGenericOpenGLRenderWindow;

namespace apertura::gui {

// The frame VTK just rendered into `window` (whose context `context` is current on this thread),
// blitted into `target` (created or resized as needed) and read back as an opaque RGB32 image.
// Returns a null image when the context is not current.
QImage readVtkFrame(vtkGenericOpenGLRenderWindow* window, QOpenGLContext* context,
                    std::unique_ptr<QOpenGLFramebufferObject>& target);

}  // namespace apertura::gui
