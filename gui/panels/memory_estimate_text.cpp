#include "gui/panels/memory_estimate_text.h"

#include <QObject>

namespace apertura::gui {

QString formatBytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 4) {
    value /= 1024.0;
    ++unit;
  }
  // 1.2 GiB but 240 MiB: one decimal only where it is a significant figure.
  const int decimals = unit > 0 && value < 10.0 ? 1 : 0;
  return QString("%1 %2").arg(value, 0, 'f', decimals).arg(units[unit]);
}

QString memoryEstimateText(const engine::MemoryEstimate& e) {
  // An optimizer whose vectors live on the GPU costs no RAM: say where it is instead of "0 B".
  QString text = e.optimizer_on_device
                     ? QObject::tr("RAM %1 (optimizer on the GPU)").arg(formatBytes(e.totalBytes()))
                     : QObject::tr("RAM %1 (optimizer %2)")
                           .arg(formatBytes(e.totalBytes()), formatBytes(e.optimizer_bytes));
  if (e.optimizer_spill_bytes > 0) {
    text += QObject::tr(" + %1 on disk (L-BFGS spill)").arg(formatBytes(e.optimizer_spill_bytes));
  }
  text += QObject::tr("; budget %1").arg(formatBytes(e.budget_bytes));
  if (!e.resident)
    text += QObject::tr(", visibilities streamed from disk");
  if (!e.fitsBudget())
    text += QObject::tr(" (over budget)");
  if (e.device_bytes > 0) {
    text += e.optimizer_on_device
                ? QObject::tr("; GPU %1 (with the optimizer)").arg(formatBytes(e.device_bytes))
                : QObject::tr("; GPU %1").arg(formatBytes(e.device_bytes));
  }
  return text;
}

}  // namespace apertura::gui
