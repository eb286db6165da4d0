#include "gui/view/plane_selector.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>

#include <algorithm>

namespace apertura::gui {

PlaneSelector::PlaneSelector(QWidget* parent)
    : QWidget(parent),
      slider_(new QSlider(Qt::Horizontal, this)),
      spin_(new QSpinBox(this)),
      total_(new QLabel(this)),
      frequency_(new QLabel(this)) {
  setObjectName("plane-selector");
  slider_->setObjectName("plane-slider");
  spin_->setObjectName("plane-spin");
  frequency_->setObjectName("plane-frequency");
  slider_->setPageStep(1);
  slider_->setTickPosition(QSlider::TicksBelow);
  slider_->setToolTip(tr("Plane (channel) of the cube shown; every image view follows"));
  spin_->setToolTip(slider_->toolTip());
  frequency_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  frequency_->setMinimumWidth(frequency_->fontMetrics().horizontalAdvance("0000.000000 GHz"));
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(4);
  layout->addWidget(new QLabel(tr("Plane"), this));
  layout->addWidget(spin_);
  layout->addWidget(total_);
  layout->addWidget(slider_, 1);
  layout->addWidget(frequency_);
  connect(slider_, &QSlider::valueChanged, this, [this](int k) { show(k, true); });
  connect(spin_, qOverload<int>(&QSpinBox::valueChanged), this, [this](int k) { show(k, true); });
  setPlanes(0, {});
}

QString PlaneSelector::formatGhz(double frequency_hz) {
  if (!(frequency_hz > 0.0))
    return {};
  return QStringLiteral("%1 GHz").arg(frequency_hz * 1e-9, 0, 'f', 6);
}

void PlaneSelector::setPlanes(int count, std::vector<double> frequencies_hz) {
  count_ = std::max(0, count);
  frequencies_hz_ = std::move(frequencies_hz);
  const int current = plane();
  {
    const QSignalBlocker a(slider_), b(spin_);
    slider_->setRange(0, std::max(0, count_ - 1));
    spin_->setRange(0, std::max(0, count_ - 1));
  }
  total_->setText(tr("of %1").arg(count_));
  setVisible(count_ > 1);
  show(current, false);
}

void PlaneSelector::setPlane(int k) {
  show(k, false);
}

int PlaneSelector::plane() const {
  return spin_->value();
}

QString PlaneSelector::frequencyText() const {
  const int k = plane();
  if (k < 0 || static_cast<std::size_t>(k) >= frequencies_hz_.size())
    return {};
  return formatGhz(frequencies_hz_[static_cast<std::size_t>(k)]);
}

void PlaneSelector::show(int k, bool user) {
  if (updating_)
    return;
  k = std::clamp(k, 0, std::max(0, count_ - 1));
  updating_ = true;
  {
    const QSignalBlocker a(slider_), b(spin_);
    slider_->setValue(k);
    spin_->setValue(k);
  }
  frequency_->setText(frequencyText());
  updating_ = false;
  if (user)
    emit planeChosen(k);
}

}  // namespace apertura::gui
