#include "gui/dialogs/simulation_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "core/util/input_error.h"

namespace apertura::gui {
namespace {

QDoubleSpinBox* spin(double lo, double hi, double value, int decimals, const QString& suffix) {
  auto* s = new QDoubleSpinBox;
  s->setRange(lo, hi);
  s->setDecimals(decimals);
  s->setValue(value);
  s->setSuffix(suffix);
  return s;
}

}  // namespace

SimulationDialog::SimulationDialog(QWidget* parent)
    : QDialog(parent),
      sky_(new QPlainTextEdit),
      array_(new QComboBox),
      ra_(new QLineEdit("04:55:10.98")),
      dec_(new QLineEdit("-30:21:59.4")),
      hours_(spin(0.01, 24.0, 2.0, 2, " h")),
      integration_(spin(0.1, 3600.0, 60.0, 1, " s")),
      freq_ghz_(spin(0.01, 1000.0, 230.0, 4, " GHz")),
      nchan_(new QSpinBox),
      chan_width_mhz_(spin(0.001, 10000.0, 100.0, 3, " MHz")),
      sigma_(spin(0.0, 1000.0, 0.01, 5, " Jy")),
      seed_(new QSpinBox),
      output_(new QLineEdit(QDir::home().filePath("simulated.ms"))),
      format_(new QComboBox) {
  setWindowTitle(tr("New simulated data set"));
  sky_->setPlainText(
      "point 0.05,0.6,-0.4\n"
      "gaussian 0.02,-0.5,0.3,0.25,0.15,30\n"
      "disk 0.5,0,0,0.1,0.45,0.6,1.2,35,70");
  sky_->setToolTip(
      tr("One component per line, offsets and sizes in arcsec, angles in degrees:\n"
         "point FLUX,DRA,DDEC\ngaussian FLUX,DRA,DDEC,MAJ,MIN,PA\n"
         "disk FLUX,DRA,DDEC,R_IN,GAP_IN,GAP_OUT,R_OUT,INC,PA"));
  sky_->setMinimumHeight(90);
  array_->setEditable(true);
  array_->addItems({"alma-compact", "vla-y", "random:300:16:12"});
  array_->setToolTip(tr("alma-compact, vla-y[:ARM_M], random:MAXBL_M:N:DISH_M or ms:PATH"));
  nchan_->setRange(1, 4096);
  nchan_->setValue(1);
  seed_->setRange(0, 1 << 30);
  seed_->setValue(1);

  auto* browse = new QPushButton(tr("Browse…"));
  connect(browse, &QPushButton::clicked, this, &SimulationDialog::chooseOutput);
  output_->setMinimumWidth(280);
  format_->setObjectName("outputFormat");
  format_->addItem(tr("Measurement Set"), "ms");
  format_->addItem(tr("UVFITS"), "uvfits");
  format_->setToolTip(tr("UVFITS needs every spectral window to have the same channels"));
  connect(format_, &QComboBox::activated, this, &SimulationDialog::formatChosen);
  connect(output_, &QLineEdit::textEdited, this, &SimulationDialog::outputEdited);
  auto* out_row = new QHBoxLayout;
  out_row->addWidget(output_, 1);
  out_row->addWidget(format_);
  out_row->addWidget(browse);

  auto* form = new QFormLayout;
  form->addRow(tr("Sky model"), sky_);
  form->addRow(tr("Array"), array_);
  form->addRow(tr("Phase centre RA"), ra_);
  form->addRow(tr("Phase centre Dec"), dec_);
  form->addRow(tr("Duration"), hours_);
  form->addRow(tr("Integration"), integration_);
  form->addRow(tr("First channel"), freq_ghz_);
  form->addRow(tr("Channels"), nchan_);
  form->addRow(tr("Channel width"), chan_width_mhz_);
  form->addRow(tr("Noise σ (re, im)"), sigma_);
  form->addRow(tr("Seed"), seed_);
  form->addRow(tr("Write to"), out_row);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Simulate"));
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(buttons);
}

void SimulationDialog::setOutput(const QString& path) {
  output_->setText(path);
  outputEdited(path);
}

void SimulationDialog::chooseOutput() {
  const bool uvfits = format_->currentData().toString() == "uvfits";
  const QString path = QFileDialog::getSaveFileName(
      this, uvfits ? tr("Write UVFITS file") : tr("Write Measurement Set"), output_->text(),
      uvfits ? tr("UVFITS (*.uvfits *.uvf *.fits *.fit)") : tr("Measurement Set (*.ms)"));
  if (!path.isEmpty())
    setOutput(path);
}

void SimulationDialog::formatChosen(int index) {
  // The core picks the format from the extension, so the choice rewrites it.
  QString path = output_->text();
  const QFileInfo info(path);
  if (sim::outputFormatForPath(path.toStdString()) == sim::OutputFormat::Uvfits ||
      info.suffix().compare("ms", Qt::CaseInsensitive) == 0) {
    path.chop(info.suffix().size() + 1);
  }
  output_->setText(path + "." + format_->itemData(index).toString());
}

void SimulationDialog::outputEdited(const QString& path) {
  const bool uvfits = sim::outputFormatForPath(path.toStdString()) == sim::OutputFormat::Uvfits;
  format_->setCurrentIndex(uvfits ? 1 : 0);
}

sim::SimulationRequest SimulationDialog::request() const {
  sim::SimulationRequest r;
  const QStringList lines = sky_->toPlainText().split('\n');
  for (int i = 0; i < lines.size(); ++i) {
    const QString t = lines[i].trimmed();
    if (t.isEmpty())
      continue;
    const int space = t.indexOf(' ');
    const QString kind = space < 0 ? t : t.left(space);
    const std::string spec = space < 0 ? std::string() : t.mid(space + 1).remove(' ').toStdString();
    if (kind == "point") {
      r.points.push_back(spec);
    } else if (kind == "gaussian") {
      r.gaussians.push_back(spec);
    } else if (kind == "disk") {
      r.disks.push_back(spec);
    } else {
      throw InputError("sky model line " + std::to_string(i + 1),
                       "unknown component '" + kind.toStdString() + "' (point, gaussian, disk)");
    }
  }
  r.array = array_->currentText().toStdString();
  r.ra = ra_->text().toStdString();
  r.dec = dec_->text().toStdString();
  r.hours = hours_->value();
  r.integration_s = integration_->value();
  r.freq_hz = freq_ghz_->value() * 1e9;
  r.nchan = nchan_->value();
  r.chan_width_hz = chan_width_mhz_->value() * 1e6;
  r.sigma_jy = sigma_->value();
  r.seed = static_cast<std::uint64_t>(seed_->value());
  r.output = output_->text().toStdString();
  return r;
}

}  // namespace apertura::gui
