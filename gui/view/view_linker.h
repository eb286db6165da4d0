#pragma once

#include <QObject>
#include <QPointF>
#include <QPointer>
#include <QVector>

namespace apertura::gui {

class ImageView;

// Keeps zoom and pan of several image views (dirty, model, residual) in step. A view moved by
// the user is copied to the others; the guard and ImageView's "emit only on change" rule stop
// the copies from echoing back.
class ViewLinker : public QObject {
  Q_OBJECT

 public:
  explicit ViewLinker(QObject* parent = nullptr);

  // A new view takes the geometry of the views already linked. Views removed or destroyed are
  // simply dropped.
  void addView(ImageView* view);
  void removeView(ImageView* view);
  int viewCount() const;

 private:
  void propagate(ImageView* source, QPointF center, double zoom);

  QVector<QPointer<ImageView>> views_;
  bool syncing_ = false;
};

}  // namespace apertura::gui
