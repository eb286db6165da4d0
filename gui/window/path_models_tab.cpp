#include "gui/window/path_models_tab.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/pipeline/imaging_products.h"
#include "core/pipeline/lambda_path.h"
#include "gui/view/image_cube.h"
#include "gui/view/image_panel.h"

namespace apertura::gui {
namespace {

QString number(double v) {
  return QString::number(v, 'g', 4);
}

}  // namespace

PathModelsTab::PathModelsTab(QWidget* parent)
    : QWidget(parent),
      slider_(new QSlider(Qt::Horizontal)),
      caption_(new QLabel),
      panel_(new ImagePanel) {
  setObjectName("lambda-models");
  slider_->setObjectName("lambda-step");
  slider_->setTickPosition(QSlider::TicksBelow);
  slider_->setPageStep(1);
  slider_->setToolTip(tr("Path step: from the strongest λ (left) to the weakest"));
  caption_->setWordWrap(true);
  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("λ step")));
  top->addWidget(slider_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(top);
  layout->addWidget(caption_);
  layout->addWidget(panel_, 1);
  connect(slider_, &QSlider::valueChanged, this, [this](int v) { showStep(v); });
  clear();
}

void PathModelsTab::clear() {
  products_.reset();
  {
    const QSignalBlocker block(slider_);
    slider_->setRange(0, 0);
  }
  slider_->setEnabled(false);
  caption_->setText(
      tr("The models along the λ path of a run with an automatic λ appear here "
         "(also from a click on a point of the λ path chart)."));
  panel_->setImage(ImageData{});
}

void PathModelsTab::setProducts(std::shared_ptr<const pipeline::ImagingProducts> products) {
  if (!products || products->lambda_path.empty()) {
    clear();
    return;
  }
  products_ = std::move(products);
  const auto& path = products_->lambda_path;
  // Start at the step closest to the chosen λ (in log λ): what the run went on from.
  int nearest = 0;
  if (products_->auto_lambda > 0.0) {
    const auto distance = [&](const pipeline::ImagingProducts::LambdaStep& s) {
      return std::abs(std::log(s.lambda / products_->auto_lambda));
    };
    for (std::size_t i = 1; i < path.size(); ++i)
      if (distance(path[i]) < distance(path[std::size_t(nearest)]))
        nearest = int(i);
  }
  {
    const QSignalBlocker block(slider_);
    slider_->setRange(0, int(path.size()) - 1);
    slider_->setValue(nearest);
  }
  slider_->setEnabled(path.size() > 1);
  showStep(nearest);
}

bool PathModelsTab::showStep(int step) {
  if (!products_)
    return false;
  const auto& path = products_->lambda_path;
  step = std::clamp(step, 0, int(path.size()) - 1);
  if (slider_->value() != step) {
    const QSignalBlocker block(slider_);
    slider_->setValue(step);
  }
  const pipeline::ImagingProducts::LambdaStep& s = path[std::size_t(step)];
  const bool cv = pipeline::isCrossValidatedPath(path);
  QString what = tr("Step %1 of %2: λ = %3").arg(step + 1).arg(path.size()).arg(number(s.lambda));
  if (products_->auto_lambda > 0.0)
    what += tr(" (chosen: %1)").arg(number(products_->auto_lambda));
  const imaging::ImageGeometry& g = products_->geometry;
  const std::size_t plane = g.numPixels();
  if (s.model.empty() || plane == 0 || s.model.size() % plane != 0) {
    caption_->setText(what + tr(". Its model was not kept: a path keeps the models of its first "
                                "steps only, within %1 MiB.")
                                 .arg(pipeline::kPathModelBudgetBytes >> 20));
    panel_->setImage(ImageData{});
    return false;
  }
  caption_->setText(
      what +
      (cv ? tr(". The mean of the %n folds' models, each fit on the other folds' samples "
               "(held-out reduced χ² %1).",
               nullptr, int(s.fold_validation.size()))
                .arg(number(s.validation))
          : tr(". The path's model at this λ (reduced χ² %1).").arg(number(s.chi2_reduced))));
  ImageCube c;
  c.nx = g.nx;
  c.ny = g.ny;
  c.planes = int(s.model.size() / plane);
  // Shares the step's pixels and keeps the products alive with them.
  c.pixels = std::shared_ptr<const std::vector<float>>(products_, &s.model);
  c.unit = "Jy/pixel";
  c.wcs.ref_ra_rad = products_->phase_centre_ra_rad;
  c.wcs.ref_dec_rad = products_->phase_centre_dec_rad;
  c.wcs.ref_pixel_x = g.nx / 2;
  c.wcs.ref_pixel_y = g.ny / 2;
  c.wcs.cell_x_rad = g.cell_l;
  c.wcs.cell_y_rad = g.cell_m;
  c.frequencies_hz = products_->plane_frequencies_hz;
  panel_->setImage(std::move(c));
  return true;
}

int PathModelsTab::step() const {
  return products_ ? slider_->value() : -1;
}

int PathModelsTab::stepCount() const {
  return products_ ? int(products_->lambda_path.size()) : 0;
}

QString PathModelsTab::caption() const {
  return caption_->text();
}

}  // namespace apertura::gui
