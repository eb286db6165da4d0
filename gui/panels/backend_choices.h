#pragma once

#include <QString>
#include <QVector>
#include <string>

#include "core/imaging/backend_kind.h"
#include "core/imaging/gpu_devices.h"

namespace apertura::gui {

// One entry of the run settings' backend list. `value` is "auto", "cpu" or "cuda:N" (the
// project's imaging.backend and imaging.gpu_device in one string).
struct BackendChoice {
  QString label;
  QString value;
  bool enabled = true;
};

// "Auto", "CPU", then "GPU N: <name>, <memory>" for each CUDA device of `inventory`, or one
// disabled "GPU (not available: <why>)" entry when there is none.
QVector<BackendChoice> backendChoices(const apertura::imaging::GpuInventory& inventory);
// The choices shown while the device query is still running: Auto, CPU and a disabled
// "GPU (looking for devices…)".
QVector<BackendChoice> pendingBackendChoices();

// Between the project's fields and a choice's value.
QString backendValue(imaging::Backend backend, int device);
void applyBackendValue(const QString& value, imaging::Backend& backend, int& device);

}  // namespace apertura::gui
