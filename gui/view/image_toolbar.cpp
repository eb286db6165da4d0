#include "gui/view/image_toolbar.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDoubleValidator>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QToolButton>

#include <cmath>

namespace apertura::gui {
namespace {

struct StretchEntry {
  const char* name;
  StretchKind kind;
};
constexpr StretchEntry kStretches[] = {
    {"linear", StretchKind::Linear}, {"log", StretchKind::Log},
    {"sqrt", StretchKind::Sqrt},     {"asinh", StretchKind::Asinh},
    {"power", StretchKind::Power},   {"hist. eq.", StretchKind::HistogramEqualization}};

// Clip choices: a percentile, or -1 for min/max, -2 for the user's range.
constexpr double kMinMax = -1.0;
constexpr double kUser = -2.0;
constexpr double kClipChoices[] = {kMinMax, 99.9, 99.5, 99.0, 95.0, kUser};

QString clipLabel(double choice) {
  if (choice == kMinMax)
    return QObject::tr("min/max");
  if (choice == kUser)
    return QObject::tr("user");
  return QStringLiteral("%1 %").arg(choice);
}

}  // namespace

ImageToolbar::ImageToolbar(QWidget* parent)
    : QWidget(parent),
      colormap_(new QComboBox(this)),
      invert_(new QCheckBox(tr("invert"), this)),
      stretch_(new QComboBox(this)),
      exponent_(new QDoubleSpinBox(this)),
      clip_(new QComboBox(this)),
      user_min_(new QLineEdit(this)),
      user_max_(new QLineEdit(this)),
      fit_(new QToolButton(this)),
      histogram_(new QToolButton(this)) {
  for (ColormapKind kind : allColormaps())
    colormap_->addItem(colormapName(kind), static_cast<int>(kind));
  for (const StretchEntry& entry : kStretches)
    stretch_->addItem(entry.name, static_cast<int>(entry.kind));
  for (double choice : kClipChoices)
    clip_->addItem(clipLabel(choice), choice);
  exponent_->setRange(0.05, 10.0);
  exponent_->setSingleStep(0.1);
  exponent_->setDecimals(2);
  exponent_->setPrefix(tr("exp "));
  for (QLineEdit* edit : {user_min_, user_max_}) {
    edit->setValidator(new QDoubleValidator(edit));
    edit->setMinimumWidth(40);
    edit->setMaximumWidth(90);
  }
  // Not as wide as the longest item: the toolbar sets the window's minimum width.
  for (QComboBox* combo : {colormap_, stretch_, clip_}) {
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(5);
  }
  user_min_->setPlaceholderText(tr("min"));
  user_max_->setPlaceholderText(tr("max"));
  fit_->setText(tr("Fit"));
  fit_->setToolTip(tr("Fit the image to the window (F)"));
  histogram_->setText(tr("Histogram"));
  histogram_->setCheckable(true);

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(colormap_);
  layout->addWidget(invert_);
  layout->addWidget(new QLabel(tr("Scale"), this));
  layout->addWidget(stretch_);
  layout->addWidget(exponent_);
  layout->addWidget(new QLabel(tr("Clip"), this));
  layout->addWidget(clip_);
  layout->addWidget(user_min_);
  layout->addWidget(user_max_);
  layout->addStretch(1);
  layout->addWidget(fit_);
  layout->addWidget(histogram_);

  const auto changed = [this] { readControls(); };
  connect(colormap_, &QComboBox::currentIndexChanged, this, changed);
  connect(invert_, &QCheckBox::toggled, this, changed);
  connect(stretch_, &QComboBox::currentIndexChanged, this, changed);
  connect(exponent_, &QDoubleSpinBox::valueChanged, this, changed);
  connect(clip_, &QComboBox::currentIndexChanged, this, changed);
  connect(user_min_, &QLineEdit::editingFinished, this, changed);
  connect(user_max_, &QLineEdit::editingFinished, this, changed);
  connect(fit_, &QToolButton::clicked, this, &ImageToolbar::fitRequested);
  connect(histogram_, &QToolButton::toggled, this, &ImageToolbar::histogramToggled);
  setSettings(settings_);
}

void ImageToolbar::setSettings(const DisplaySettings& settings) {
  updating_ = true;
  settings_ = settings;
  colormap_->setCurrentIndex(colormap_->findData(static_cast<int>(settings.colormap)));
  invert_->setChecked(settings.inverted);
  stretch_->setCurrentIndex(stretch_->findData(static_cast<int>(settings.stretch.kind)));
  exponent_->setValue(settings.stretch.power_exponent);
  double choice = kUser;
  if (settings.clip == ClipMode::MinMax)
    choice = kMinMax;
  if (settings.clip == ClipMode::Percentile)
    choice = settings.clip_percent;
  int index = clip_->findData(choice);
  if (index < 0) {  // a percentile not in the list: offer it
    clip_->insertItem(clip_->count() - 1, clipLabel(choice), choice);
    index = clip_->findData(choice);
  }
  clip_->setCurrentIndex(index);
  if (settings.clip == ClipMode::User)
    showClipRange({settings.user_min, settings.user_max});
  updateEnabled();
  updating_ = false;
}

void ImageToolbar::showClipRange(ValueRange range) {
  user_min_->setText(QString::number(range.min, 'g', 6));
  user_max_->setText(QString::number(range.max, 'g', 6));
}

void ImageToolbar::readControls() {
  if (updating_)
    return;
  DisplaySettings s = settings_;
  s.colormap = static_cast<ColormapKind>(colormap_->currentData().toInt());
  s.inverted = invert_->isChecked();
  s.stretch.kind = static_cast<StretchKind>(stretch_->currentData().toInt());
  s.stretch.power_exponent = exponent_->value();
  const double choice = clip_->currentData().toDouble();
  s.clip = choice == kMinMax ? ClipMode::MinMax
           : choice == kUser ? ClipMode::User
                             : ClipMode::Percentile;
  if (s.clip == ClipMode::Percentile)
    s.clip_percent = choice;
  bool min_ok = false;
  bool max_ok = false;
  const double lo = QLocale().toDouble(user_min_->text(), &min_ok);
  const double hi = QLocale().toDouble(user_max_->text(), &max_ok);
  if (min_ok && max_ok && std::isfinite(lo) && std::isfinite(hi) && hi != lo) {
    s.user_min = lo;
    s.user_max = hi;
  }
  settings_ = s;
  updateEnabled();
  emit settingsChanged(settings_);
}

void ImageToolbar::updateEnabled() {
  exponent_->setVisible(settings_.stretch.kind == StretchKind::Power);
  const bool user = settings_.clip == ClipMode::User;
  user_min_->setReadOnly(!user);
  user_max_->setReadOnly(!user);
}

}  // namespace apertura::gui
