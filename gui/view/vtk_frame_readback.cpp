#include "gui/view/vtk_frame_readback.h"

#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QOpenGLFramebufferObject>

#include <algorithm>

#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkOpenGLState.h>

namespace apertura::gui {

QImage readVtkFrame(vtkGenericOpenGLRenderWindow* window, QOpenGLContext* context,
                    std::unique_ptr<QOpenGLFramebufferObject>& target) {
  if (context == nullptr || QOpenGLContext::currentContext() != context)
    return {};
  const int* src = window->GetSize();
  const QSize size(std::max(1, src[0]), std::max(1, src[1]));
  if (!target || target->size() != size)
    target = std::make_unique<QOpenGLFramebufferObject>(size);
  vtkOpenGLState* state = window->GetState();
  state->vtkglBindFramebuffer(GL_DRAW_FRAMEBUFFER, target->handle());
  QOpenGLExtraFunctions* f = context->extraFunctions();
  const GLenum draw_buffer = GL_COLOR_ATTACHMENT0;
  f->glDrawBuffers(1, &draw_buffer);
  window->BlitDisplayFramebuffer(0, 0, 0, size.width(), size.height(), 0, 0, size.width(),
                                 size.height(), GL_COLOR_BUFFER_BIT, GL_NEAREST);
  // VTK leaves the background alpha at 0 and QImage reads the buffer as premultiplied, which
  // would turn the background black: make the frame opaque.
  state->vtkglBindFramebuffer(GL_FRAMEBUFFER, target->handle());
  state->vtkglViewport(0, 0, size.width(), size.height());
  state->vtkglColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_TRUE);
  state->vtkglClearColor(0.0f, 0.0f, 0.0f, 1.0f);
  f->glClear(GL_COLOR_BUFFER_BIT);
  state->vtkglColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  QImage frame = target->toImage().convertToFormat(QImage::Format_RGB32);
  // toImage() rebound Qt's idea of the framebuffer; VTK must not trust its cache next time.
  state->Reset();
  return frame;
}

}  // namespace apertura::gui
