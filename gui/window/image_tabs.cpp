#include "gui/window/image_tabs.h"

#include <algorithm>
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
    // Linked planes: every view shows the plane the user picks in any of them.
    connect(p, &ImagePanel::planeChanged, this, &ImageTabs::setPlane);
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
  // The snapshot's pixels are shared with the cube, not copied: the panel copies out the one
  // plane it shows.
  ImageCube c;
  c.nx = s->nx;
  c.ny = s->ny;
  c.planes = std::max(1, s->planes);
  c.pixels = std::shared_ptr<const std::vector<float>>(s, &s->pixels);
  c.unit = s->unit;
  c.wcs.ref_ra_rad = s->ref_ra_rad;
  c.wcs.ref_dec_rad = s->ref_dec_rad;
  c.wcs.ref_pixel_x = s->nx / 2;
  c.wcs.ref_pixel_y = s->ny / 2;
  c.wcs.cell_x_rad = s->cell_x_rad;
  c.wcs.cell_y_rad = s->cell_y_rad;
  c.frequencies_hz = s->plane_frequencies_hz;
  if (s->name != "model") {  // a model has no beam
    if (s->beam_major_rad > 0.0)
      c.beam = BeamShape{s->beam_major_rad, s->beam_minor_rad, s->beam_pa_rad * 180.0 / M_PI};
    for (const auto& b : s->plane_beams) {
      c.beams.push_back(b.major_rad > 0.0 ? std::optional<BeamShape>(BeamShape{
                                                b.major_rad, b.minor_rad, b.pa_rad * 180.0 / M_PI})
                                          : std::nullopt);
    }
  }
  p->setImage(std::move(c));
  p->setCaption(QString());  // this run's image now
  ++shown_[QString::fromStdString(s->name)];
}

void ImageTabs::markShownAs(const QString& caption) {
  for (ImagePanel* p : panels_) {
    const auto image = p->view()->image();
    p->setCaption(image && !image->empty() ? caption : QString());
  }
}

void ImageTabs::setPlane(int plane) {
  plane_ = std::max(0, plane);
  for (ImagePanel* p : panels_)
    p->setPlane(plane_);
  emit planeChanged(plane_);
}

}  // namespace apertura::gui
