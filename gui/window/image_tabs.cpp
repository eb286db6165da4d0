#include "gui/window/image_tabs.h"

#include <cmath>

#include "gui/view/image_panel.h"
#include "gui/view/image_renderer.h"
#include "gui/view/image_view.h"
#include "gui/view/view_linker.h"

namespace apertura::gui {

ImageTabs::ImageTabs(QObject* parent) : QObject(parent) {
  auto* linker = new ViewLinker(this);
  const std::pair<const char*, QString> names[] = {{"dirty", tr("Dirty")},
                                                   {"psf", tr("PSF")},
                                                   {"model", tr("Model")},
                                                   {"residual", tr("Residual")},
                                                   {"restored", tr("Restored")}};
  for (const auto& [name, title] : names) {
    auto* p = new ImagePanel;
    if (QString(name) == "residual") {
      DisplaySettings d = p->displaySettings();
      d.colormap = ColormapKind::CoolWarm;
      p->setDisplaySettings(d);
    }
    linker->addView(p->view());
    panels_.insert(name, p);
    names_ << name;
    titles_.insert(name, title);
  }
}

void ImageTabs::showSnapshot(const std::shared_ptr<const engine::ImageSnapshot>& s) {
  if (!s)
    return;
  ImagePanel* p = panels_.value(QString::fromStdString(s->name));
  if (!p)
    return;
  ImageData d;
  d.nx = s->nx;
  d.ny = s->ny;
  d.pixels = s->pixels;
  d.unit = s->unit;
  d.wcs.ref_ra_rad = s->ref_ra_rad;
  d.wcs.ref_dec_rad = s->ref_dec_rad;
  d.wcs.ref_pixel_x = s->nx / 2;
  d.wcs.ref_pixel_y = s->ny / 2;
  d.wcs.cell_x_rad = s->cell_x_rad;
  d.wcs.cell_y_rad = s->cell_y_rad;
  if (s->beam_major_rad > 0.0 && s->name != "model") {
    d.beam = BeamShape{s->beam_major_rad, s->beam_minor_rad, s->beam_pa_rad * 180.0 / M_PI};
  }
  p->setImage(std::move(d));
  ++shown_[QString::fromStdString(s->name)];
}

}  // namespace apertura::gui
