#include "gui/view/volume_view.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QPainter>
#include <QThread>
#include <QTimer>
#include <QWheelEvent>

#include <algorithm>

#include <vtkCommand.h>

#include "gui/controller/background_priority.h"
#include "gui/view/iteration_stack.h"
#include "gui/view/offscreen_vtk_window.h"
#include "gui/view/volume_render_worker.h"
#include "gui/view/vtk_host_widget.h"

namespace apertura::gui {

VolumeView::VolumeView(QWidget* parent) : QWidget(parent) {
  setAttribute(Qt::WA_OpaquePaintEvent);
  setFocusPolicy(Qt::StrongFocus);
  // Qt creates offscreen surfaces on the GUI thread only; the render thread makes its own
  // context current on this one.
  surface_ = std::make_unique<QOffscreenSurface>();
  surface_->setFormat(VtkHostWidget::contextFormat());
  surface_->create();
  worker_ = new VolumeRenderWorker(surface_.get());
  if (QOpenGLContext::supportsThreadedOpenGL()) {
    thread_ = new QThread(this);
    thread_->setObjectName(QStringLiteral("volume render"));
    worker_->moveToThread(thread_);
    thread_->start();
    // The ray caster's threads inherit this: the window and the engine keep the CPU first.
    QMetaObject::invokeMethod(
        worker_, [] { lowerCurrentThreadPriority(); }, Qt::QueuedConnection);
  }
  connect(worker_, &VolumeRenderWorker::frameReady, this, &VolumeView::onFrame);
  connect(worker_, &VolumeRenderWorker::mouseHandled, this, &VolumeView::onMouseHandled);
}

VolumeView::~VolumeView() {
  // The worker's OpenGL resources go on its own thread, then the thread, then the surface.
  if (thread_) {
    QMetaObject::invokeMethod(
        worker_, [w = worker_] { w->shutdown(); }, Qt::BlockingQueuedConnection);
    thread_->quit();
    thread_->wait();
  } else {
    worker_->shutdown();
  }
  delete worker_;
  surface_.reset();
}

template <typename F>
void VolumeView::post(F&& call) {
  QMetaObject::invokeMethod(worker_, std::forward<F>(call), Qt::QueuedConnection);
}

QColor VolumeView::backgroundColor() {
  return QColor::fromRgbF(0.06f, 0.07f, 0.1f);
}

bool VolumeView::softwareGl() const {
  return OffscreenVtkWindow::isSoftwareRenderer(gl_renderer_);
}

void VolumeView::setStack(const IterationStack& stack, const QString& caption) {
  const auto slices = stack.slices();
  if (slices.empty()) {
    clear();
    return;
  }
  // A copy of at most 64 x 128 x 128 floats (4 MiB, about a millisecond); everything else
  // (normalisation, VTK's data, the frame) happens on the render thread.
  auto input = std::make_shared<VolumeInput>();
  input->nx = stack.nx();
  input->ny = stack.ny();
  input->nz = static_cast<int>(slices.size());
  input->pixel = stack.factor();
  input->values.reserve(static_cast<std::size_t>(input->nx) * input->ny * input->nz);
  for (const auto* slice : slices)
    input->values.insert(input->values.end(), slice->pixels.begin(), slice->pixels.end());
  range_ = finiteRange(input->values.data(), input->values.size());
  dims_ = {input->nx, input->ny, input->nz};
  slices_ = input->nz;
  label_ = !caption.isEmpty()
               ? caption
               : tr("Model: iterations %1 (bottom) to %2 (top), %3 snapshots, each scaled to its "
                    "own peak (asinh)")
                     .arg(slices.front()->iteration)
                     .arg(slices.back()->iteration)
                     .arg(input->nz);
  std::shared_ptr<const VolumeInput> shared = std::move(input);
  post([w = worker_, shared] { w->setInput(shared); });
  update();
}

void VolumeView::clear() {
  slices_ = 0;
  dims_ = {0, 0, 0};
  range_ = {};
  label_.clear();
  post([w = worker_] { w->clear(); });
  update();
}

void VolumeView::resetCamera() {
  post([w = worker_] { w->resetCamera(); });
}

void VolumeView::rotate(double azimuth_deg, double elevation_deg) {
  post([w = worker_, azimuth_deg, elevation_deg] { w->rotate(azimuth_deg, elevation_deg); });
}

void VolumeView::requestRender() {
  post([w = worker_] { w->requestRender(); });
}

QImage VolumeView::grabRendered(int timeout_ms) {
  const quint64 serial = ++grab_serial_;
  post([w = worker_, size = deviceSize()] { w->setSize(size); });
  post([w = worker_, serial] { w->renderNow(serial); });
  QElapsedTimer clock;
  clock.start();
  QEventLoop loop;
  QTimer poll;
  connect(&poll, &QTimer::timeout, &loop, [&] {
    if (answered_serial_ >= serial || clock.elapsed() > timeout_ms)
      loop.quit();
  });
  poll.start(2);
  if (answered_serial_ < serial)
    loop.exec();
  return answered_serial_ >= serial ? frame_ : QImage();
}

void VolumeView::onFrame(const QImage& frame, double ms, const QString& method,
                         const QString& renderer, const QString& error, quint64 serial) {
  if (!frame.isNull()) {
    frame_ = frame;
    ++frames_;
  }
  if (ms > 0.0)
    last_frame_ms_ = ms;
  if (!method.isEmpty())
    method_ = method;
  gl_renderer_ = renderer;
  error_ = error;
  answered_serial_ = std::max(answered_serial_, serial);
  update();
  emit frameArrived();
}

void VolumeView::paintEvent(QPaintEvent* /*event*/) {
  QPainter painter(this);
  if (frame_.isNull()) {
    painter.fillRect(rect(), backgroundColor());
    painter.setPen(QColor(180, 184, 200));
    painter.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap,
                     error_.isEmpty() ? tr("Preparing the 3D view…") : error_);
    return;
  }
  // The frame may lag a resize by one render: scaled to fit, it never leaves a hole.
  painter.setRenderHint(QPainter::SmoothPixmapTransform, true);
  painter.drawImage(rect(), frame_);
  painter.setPen(QColor(190, 195, 215));
  QFont font = painter.font();
  font.setPointSizeF(font.pointSizeF() * 1.1);
  painter.setFont(font);
  const QRect area = rect().adjusted(12, 8, -12, -8);
  if (slices_ == 0) {
    painter.drawText(area, Qt::AlignLeft | Qt::AlignBottom | Qt::TextWordWrap,
                     tr("No iterations yet: run the imaging to stack its model images"));
    return;
  }
  painter.drawText(area, Qt::AlignLeft | Qt::AlignBottom, label_);
}

QSize VolumeView::deviceSize() const {
  const qreal dpr = devicePixelRatioF();
  return {std::max(1, static_cast<int>(width() * dpr + 0.5)),
          std::max(1, static_cast<int>(height() * dpr + 0.5))};
}

void VolumeView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  post([w = worker_, size = deviceSize()] { w->setSize(size); });
}

void VolumeView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  post([w = worker_, size = deviceSize()] {
    w->setSize(size);
    w->setActive(true);
  });
}

void VolumeView::hideEvent(QHideEvent* event) {
  QWidget::hideEvent(event);
  post([w = worker_] { w->setActive(false); });
}

void VolumeView::sendMouse(const MouseInput& input) {
  ++mouse_in_flight_;
  post([w = worker_, input] {
    w->mouseEvent(input.vtk_event, input.pos, input.modifiers, input.repeat);
  });
}

void VolumeView::onMouseHandled() {
  mouse_in_flight_ = std::max(0, mouse_in_flight_ - 1);
  // A drag sends its newest position once the previous one was drawn: a slow frame skips
  // positions instead of queueing them.
  if (mouse_in_flight_ == 0 && pending_move_) {
    const MouseInput move = *pending_move_;
    pending_move_.reset();
    sendMouse(move);
  }
}

void VolumeView::mousePressEvent(QMouseEvent* event) {
  const unsigned long id = OffscreenVtkWindow::buttonEvent(event->button(), true);
  if (id == 0) {
    QWidget::mousePressEvent(event);
    return;
  }
  sendMouse({id, event->position() * devicePixelRatioF(), event->modifiers(),
             event->type() == QEvent::MouseButtonDblClick});
  event->accept();
}

void VolumeView::mouseReleaseEvent(QMouseEvent* event) {
  const unsigned long id = OffscreenVtkWindow::buttonEvent(event->button(), false);
  if (id == 0) {
    QWidget::mouseReleaseEvent(event);
    return;
  }
  if (pending_move_) {  // the last position of the drag before the release
    const MouseInput move = *pending_move_;
    pending_move_.reset();
    sendMouse(move);
  }
  sendMouse({id, event->position() * devicePixelRatioF(), event->modifiers(), false});
  event->accept();
}

void VolumeView::mouseMoveEvent(QMouseEvent* event) {
  const MouseInput move{vtkCommand::MouseMoveEvent, event->position() * devicePixelRatioF(),
                        event->modifiers(), false};
  if (mouse_in_flight_ > 0)
    pending_move_ = move;
  else
    sendMouse(move);
  event->accept();
}

void VolumeView::wheelEvent(QWheelEvent* event) {
  const int delta = event->angleDelta().y();
  if (delta == 0) {
    QWidget::wheelEvent(event);
    return;
  }
  sendMouse({delta > 0 ? vtkCommand::MouseWheelForwardEvent : vtkCommand::MouseWheelBackwardEvent,
             event->position() * devicePixelRatioF(), event->modifiers(), false});
  event->accept();
}

}  // namespace apertura::gui
