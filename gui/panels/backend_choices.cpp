#include "gui/panels/backend_choices.h"

#include <QObject>
#include <cmath>

#include "core/project/setting_choices.h"

namespace apertura::gui {

namespace {

// Whole GiB: the list names a device, it is not a memory report (the CLI's `devices` gives more).
QString gib(std::size_t bytes) {
  return QString::number(std::llround(double(bytes) / 1073741824.0));
}

}  // namespace

QVector<BackendChoice> backendChoices(const imaging::GpuInventory& inventory) {
  QVector<BackendChoice> out = {{QObject::tr("Auto"), "auto", true},
                                {QObject::tr("CPU"), "cpu", true}};
  for (const imaging::GpuDevice& d : inventory.devices) {
    out.push_back({QObject::tr("GPU %1: %2, %3 GiB")
                       .arg(d.index)
                       .arg(QString::fromStdString(d.name), gib(d.total_bytes)),
                   QString("cuda:%1").arg(d.index), true});
  }
  if (inventory.devices.empty()) {
    const QString why =
        inventory.built_with_cuda ? QObject::tr("no device") : QObject::tr("built without CUDA");
    out.push_back({QObject::tr("GPU (not available: %1)").arg(why), "cuda-unavailable", false});
  }
  return out;
}

QVector<BackendChoice> pendingBackendChoices() {
  return {{QObject::tr("Auto"), "auto", true},
          {QObject::tr("CPU"), "cpu", true},
          {QObject::tr("GPU (looking for devices…)"), "cuda-pending", false}};
}

QString backendValue(imaging::Backend backend, int device) {
  if (backend == imaging::Backend::Cuda)
    return QString("cuda:%1").arg(device);
  return QString::fromStdString(project::choiceName(backend));
}

void applyBackendValue(const QString& value, imaging::Backend& backend, int& device) {
  if (value.startsWith("cuda:")) {
    bool ok = false;
    const int n = value.mid(5).toInt(&ok);
    backend = imaging::Backend::Cuda;
    if (ok)
      device = n;
    return;
  }
  backend = project::parseChoice<imaging::Backend>(value.toStdString()).value_or(backend);
}

}  // namespace apertura::gui
