#pragma once

#include <QWidget>
#include <map>
#include <optional>
#include <string>

#include "core/data/dataset_summary.h"
#include "core/engine/memory_estimate.h"
#include "core/imaging/gpu_devices.h"
#include "core/project/project_settings.h"
#include "gui/panels/backend_choices.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace apertura::gui {

class AngleEdit;

class PlaneListEdit;
class PluginRegularizersBox;
class SpectralSettingsBox;

// The settings of the next run (imaging, weighting, regularizers, optimizer) with validation as
// you type and the memory estimate of the run. Edits a ProjectSettings; the data section comes
// from the opened data set.
class RunSettingsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit RunSettingsPanel(QWidget* parent = nullptr);

  // The project with this panel's fields applied over `base`; nullopt (and the reason shown in
  // the panel) when a field is invalid.
  std::optional<apertura::project::ProjectSettings> settings(
      const apertura::project::ProjectSettings& base) const;
  void setSettings(const apertura::project::ProjectSettings& s);
  void setDataset(const apertura::DatasetSummary& summary);
  QString validationMessage() const;
  // The open data set's volume as the memory estimate takes it (empty without a data set).
  apertura::engine::DataVolume dataVolume(const apertura::project::ProjectSettings& s) const;
  // What the memory confirmation changes (MainWindow::launchRun): the image size (square) and
  // how the visibilities are held.
  void setImageSize(int pixels);
  void setDataMode(apertura::ReadMode mode);
  // Fills the backend list from a device query. The panel queries once, off the GUI thread, when
  // it is created (loading the CUDA module and cudaGetDeviceCount can take a while); tests call it
  // with an inventory of their own.
  void setGpuInventory(const apertura::imaging::GpuInventory& inventory);
  bool gpuDevicesListed() const { return gpu_listed_; }

 signals:
  void changed();
  void gpuDevicesReady(bool);  // after setGpuInventory (argument: whether any device was found)

 private:
  void refresh();

  QSpinBox* size_;
  AngleEdit* cell_;  // imaging.cell_arcsec, with units
  QComboBox* weighting_;
  QDoubleSpinBox* robust_;
  AngleEdit* taper_;  // weighting.taper_arcsec, with units
  QLineEdit* lambda_l1_;
  QLineEdit* lambda_tsv_;
  QLineEdit* lambda_tv_;
  QLineEdit* lambda_entropy_;
  std::map<std::string, PlaneListEdit*> plane_edits_;  // per built-in term: regularizers[i].planes
  PluginRegularizersBox* plugin_regs_ = nullptr;       // terms of loaded plugins
  SpectralSettingsBox* spectral_ = nullptr;            // MFS / cube, across-plane terms
  QComboBox* method_;
  QSpinBox* iterations_;
  QSpinBox* history_;    // L-BFGS correction pairs (optimizer.history)
  QSpinBox* in_memory_;  // of which in RAM, 0 = all (optimizer.in_memory_limit)
  QComboBox* positivity_;
  QComboBox* scaling_;  // regularization.scaling: what the λ fields mean
  QComboBox* precision_;
  QComboBox* accumulation_;  // imaging.grid_accumulation (float precision only)
  QComboBox* operator_;      // imaging.operator
  QComboBox* data_mode_;     // data.mode
  QComboBox* backend_;       // imaging.backend and imaging.gpu_device (item data "cuda:N")
  QVector<BackendChoice> backend_choices_;  // the device query's list (pending until it ends)
  bool gpu_listed_ = false;
  QLabel* memory_;
  QLabel* status_;
  std::optional<apertura::DatasetSummary> dataset_;
  // The project last shown: the memory estimate counts its settings the panel does not edit
  // (history precision, memory budget, ...).
  apertura::project::ProjectSettings base_;
};

}  // namespace apertura::gui
