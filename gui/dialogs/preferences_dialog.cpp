#include "gui/dialogs/preferences_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>

#include "gui/colormap/colormap.h"

namespace apertura::gui {

PreferencesDialog::PreferencesDialog(QWidget* parent)
    : QDialog(parent),
      colormap_(new QComboBox),
      threads_(new QSpinBox),
      recent_(new QSpinBox),
      snapshot_(new QSpinBox),
      launcher_(new QLineEdit) {
  setWindowTitle(tr("Preferences"));
  for (ColormapKind kind : allColormaps())
    colormap_->addItem(colormapName(kind));
  colormap_->setToolTip(tr("Colormap of image views in new projects (residuals stay diverging)"));
  threads_->setRange(0, 4096);
  threads_->setSpecialValueText(tr("all cores"));
  threads_->setToolTip(tr("imaging.threads of new projects; this machine has %1 cores")
                           .arg(QThread::idealThreadCount()));
  recent_->setRange(1, AppPreferences::kMaxRecent);
  recent_->setToolTip(tr("How many projects File > Open recent lists"));
  snapshot_->setRange(1, 100000);
  snapshot_->setSuffix(tr(" iterations"));
  snapshot_->setToolTip(
      tr("optimizer.snapshot_every of new projects: iterations between the "
         "image updates shown during a run"));

  launcher_->setPlaceholderText(tr("none (e.g. mpirun -np 4)"));
  launcher_->setToolTip(
      tr("Run > Run with launcher starts this command followed by apertura-cli run PROJECT "
         "--json (an MPI launcher or a batch wrapper)"));

  auto* form = new QFormLayout;
  form->addRow(tr("Default colormap"), colormap_);
  form->addRow(tr("Compute threads"), threads_);
  form->addRow(tr("Recent projects"), recent_);
  form->addRow(tr("Snapshot interval"), snapshot_);
  form->addRow(tr("Launcher command"), launcher_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  connect(buttons, &QDialogButtonBox::accepted, this, &PreferencesDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &PreferencesDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(buttons);
  setPreferences(AppPreferences::load());
}

AppPreferences PreferencesDialog::preferences() const {
  AppPreferences p;
  p.default_colormap = colormap_->currentText();
  p.threads = threads_->value();
  p.recent_count = recent_->value();
  p.snapshot_every = snapshot_->value();
  p.launcher_command = launcher_->text().trimmed();
  return p;
}

void PreferencesDialog::setPreferences(const AppPreferences& p) {
  colormap_->setCurrentText(p.default_colormap);
  threads_->setValue(p.threads);
  recent_->setValue(p.recent_count);
  snapshot_->setValue(p.snapshot_every);
  launcher_->setText(p.launcher_command);
}

void PreferencesDialog::accept() {
  preferences().save();
  QDialog::accept();
}

}  // namespace apertura::gui
