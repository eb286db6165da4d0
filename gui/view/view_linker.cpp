#include "gui/view/view_linker.h"

#include "gui/view/image_view.h"

namespace apertura::gui {

ViewLinker::ViewLinker(QObject* parent) : QObject(parent) {}

void ViewLinker::addView(ImageView* view) {
  if (!view || views_.contains(view))
    return;
  views_.removeIf([](const QPointer<ImageView>& v) { return v.isNull(); });
  const ImageView* leader = views_.isEmpty() ? nullptr : views_.front().data();
  views_.append(view);
  connect(view, &ImageView::viewChanged, this,
          [this, view](QPointF center, double zoom) { propagate(view, center, zoom); });
  connect(view, &QObject::destroyed, this,
          [this] { views_.removeIf([](const QPointer<ImageView>& v) { return v.isNull(); }); });
  if (leader) {
    syncing_ = true;
    view->setView(leader->center(), leader->zoom());
    syncing_ = false;
  }
}

void ViewLinker::removeView(ImageView* view) {
  if (!view)
    return;
  views_.removeAll(view);
  disconnect(view, nullptr, this, nullptr);
}

int ViewLinker::viewCount() const {
  int count = 0;
  for (const auto& view : views_)
    count += view ? 1 : 0;
  return count;
}

void ViewLinker::propagate(ImageView* source, QPointF center, double zoom) {
  if (syncing_)
    return;
  syncing_ = true;
  for (const auto& view : views_) {
    if (view && view != source)
      view->setView(center, zoom);
  }
  syncing_ = false;
}

}  // namespace apertura::gui
