#include "gui/panels/spectral_settings_box.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>

#include "gui/panels/lambda_text.h"
#include "gui/panels/plane_list_edit.h"

namespace apertura::gui {
namespace {

const char* const kSpectralTerms[] = {"tv-spectral", "tsv-spectral"};

}  // namespace

SpectralSettingsBox::SpectralSettingsBox(QWidget* parent)
    : QGroupBox(tr("Spectral"), parent),
      mode_(new QComboBox(this)),
      spectrum_(new QComboBox(this)),
      channels_(new QSpinBox(this)),
      planes_(new QLabel(this)) {
  setObjectName("spectral-settings");
  mode_->setObjectName("spectral-mode");
  channels_->setObjectName("channels-per-plane");
  planes_->setObjectName("cube-planes");
  // Item data are the project's imaging.spectral_mode values.
  mode_->addItem(tr("MFS (one image)"), "mfs");
  mode_->addItem(tr("Cube (image per channel group)"), "cube");
  mode_->setToolTip(
      tr("MFS images every selected channel into one image; a cube images groups of adjacent "
         "channels as planes (never mixing spectral windows), all planes jointly"));
  spectrum_->setObjectName("mfs-spectrum");
  // Item data are the project's imaging.mfs_spectrum values.
  spectrum_->addItem(tr("Auto (linear on a wide band)"), "auto");
  spectrum_->addItem(tr("Flat"), "flat");
  spectrum_->addItem(tr("Linear (sky at both band edges)"), "linear");
  spectrum_->setToolTip(
      tr("How the MFS model's brightness may change across the band. Flat: one image for every "
         "channel. Linear: the sky at the lowest and highest frequency, interpolated between "
         "them (as nterms 2), so sources with a spectral index leave no rings; twice the work "
         "per iteration. Auto: linear when the channels span at least 5 % of their frequency."));
  channels_->setRange(1, 65536);
  channels_->setValue(1);
  channels_->setToolTip(
      tr("Adjacent channels of one spectral window imaged together as one cube plane"));
  auto* form = new QFormLayout(this);
  form->addRow(tr("Mode"), mode_);
  form->addRow(tr("MFS spectrum"), spectrum_);
  form->addRow(tr("Channels per plane"), channels_);
  form->addRow(QString(), planes_);
  const std::pair<const char*, QString> titles[] = {{"tv-spectral", tr("TV across planes λ")},
                                                    {"tsv-spectral", tr("TSV across planes λ")}};
  for (const auto& [type, title] : titles) {
    auto* e = new QLineEdit("0", this);
    e->setObjectName(QString("lambda-") + type);
    e->setToolTip(
        tr("Penalizes differences between adjacent cube planes (0 switches the term "
           "off); no effect on an MFS image"));
    lambdas_[type] = e;
    auto* planes = new PlaneListEdit(QString(type) + " planes", this);
    planes->setObjectName(QString("planes-") + type);
    plane_edits_[type] = planes;
    form->addRow(title, lambdaWithPlanes(e, planes, this));
    connect(e, &QLineEdit::textChanged, this, &SpectralSettingsBox::changed);
    connect(planes, &QLineEdit::textChanged, this, &SpectralSettingsBox::changed);
  }
  connect(mode_, &QComboBox::currentIndexChanged, this, [this] {
    updateEnabled();
    emit changed();
  });
  connect(spectrum_, &QComboBox::currentIndexChanged, this, &SpectralSettingsBox::changed);
  connect(channels_, qOverload<int>(&QSpinBox::valueChanged), this, &SpectralSettingsBox::changed);
  updateEnabled();
}

QLineEdit* SpectralSettingsBox::lambdaEdit(const std::string& type) const {
  const auto it = lambdas_.find(type);
  return it == lambdas_.end() ? nullptr : it->second;
}

QLineEdit* SpectralSettingsBox::planesEdit(const std::string& type) const {
  const auto it = plane_edits_.find(type);
  return it == plane_edits_.end() ? nullptr : it->second;
}

QString SpectralSettingsBox::planeCountText() const {
  return planes_->text();
}

void SpectralSettingsBox::updateEnabled() {
  const bool cube = mode_->currentData().toString() == "cube";
  channels_->setEnabled(cube);
  spectrum_->setEnabled(!cube);
  planes_->setVisible(cube && !planes_->text().isEmpty());
  // Plane lists are a cube notion: in MFS they keep their text (for a switch back) but are ignored.
  for (const auto& [type, edit] : plane_edits_)
    edit->setEnabled(cube);
}

bool SpectralSettingsBox::isCube() const {
  return mode_->currentData().toString() == "cube";
}

void SpectralSettingsBox::setPlaneCount(int planes) {
  planes_->setText(planes == 1  ? tr("1 plane")
                   : planes > 1 ? tr("%1 planes").arg(planes)
                                : QString());
  updateEnabled();
}

bool SpectralSettingsBox::apply(project::ProjectSettings& s, QString* error) const {
  s.imaging.spectral_mode =
      project::parseChoice<project::SpectralMode>(mode_->currentData().toString().toStdString())
          .value_or(project::SpectralMode::Mfs);
  s.imaging.channels_per_plane = channels_->value();
  s.imaging.mfs_spectrum =
      project::parseChoice<project::MfsSpectrum>(spectrum_->currentData().toString().toStdString())
          .value_or(project::MfsSpectrum::Flat);
  for (const char* type : kSpectralTerms) {
    QLineEdit* e = lambdas_.at(type);
    bool ok = false;
    const std::optional<double> lambda = parseLambda(e->text(), &ok);
    if (!ok) {
      e->setStyleSheet("background: #ffd6d6");
      e->setToolTip(tr("'%1' is neither a number nor auto").arg(e->text()));
      if (error)
        *error = tr("%1 λ: '%2' is neither a number nor auto").arg(type, e->text());
      return false;
    }
    e->setStyleSheet(QString());
    std::vector<int> planes;
    if (isCube() && !plane_edits_.at(type)->planes(planes, error))
      return false;
    if (lambda == 0.0)
      continue;
    const auto it = loaded_.find(type);
    project::RegularizerSettings r =
        it == loaded_.end() ? project::RegularizerSettings{} : it->second;
    r.type = type;
    r.lambda = lambda;
    r.planes = planes;
    s.regularizers.push_back(r);
  }
  return true;
}

void SpectralSettingsBox::load(const project::ProjectSettings& s) {
  const QSignalBlocker block(this);  // one changed() from the panel's refresh is enough
  const int index =
      mode_->findData(QString::fromStdString(project::choiceName(s.imaging.spectral_mode)));
  mode_->setCurrentIndex(index < 0 ? 0 : index);
  channels_->setValue(s.imaging.channels_per_plane);
  const int spectrum =
      spectrum_->findData(QString::fromStdString(project::choiceName(s.imaging.mfs_spectrum)));
  spectrum_->setCurrentIndex(spectrum < 0 ? 0 : spectrum);
  loaded_.clear();
  for (const char* type : kSpectralTerms) {
    std::optional<double> lambda = 0.0;
    std::vector<int> planes;
    for (const auto& r : s.regularizers) {
      if (r.type == type) {
        lambda = r.lambda;
        planes = r.planes;
        loaded_[type] = r;
      }
    }
    lambdas_.at(type)->setText(lambdaText(lambda));
    plane_edits_.at(type)->setPlanes(planes);
  }
  updateEnabled();
}

}  // namespace apertura::gui
