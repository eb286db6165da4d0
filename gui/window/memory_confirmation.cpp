#include "gui/window/memory_confirmation.h"

#include <QMessageBox>
#include <QPushButton>

#include "gui/panels/memory_estimate_text.h"

namespace apertura::gui {

MemoryChoice confirmMemory(QWidget* parent, const engine::MemoryEstimate& estimate,
                           const engine::BudgetFit& fit, int image_size) {
  QMessageBox box(QMessageBox::Warning, QObject::tr("Over the memory budget"),
                  QObject::tr("This run needs about %1 of memory, over the budget of %2 "
                              "(data.memory_budget_gb; auto is half this machine's memory).")
                      .arg(formatBytes(estimate.totalBytes()), formatBytes(estimate.budget_bytes)),
                  QMessageBox::NoButton, parent);
  box.setObjectName(QStringLiteral("memory-confirmation"));
  QStringList fits;
  QPushButton* smaller = nullptr;
  QPushButton* stream = nullptr;
  if (fit.image_size > 0) {
    smaller = box.addButton(QObject::tr("Use %1 px").arg(fit.image_size), QMessageBox::ActionRole);
    fits << QObject::tr("a %1 px image instead of %2 px fits").arg(fit.image_size).arg(image_size);
  }
  if (fit.streaming_fits) {
    stream = box.addButton(QObject::tr("Stream from disk"), QMessageBox::ActionRole);
    fits << QObject::tr("streaming the visibilities from disk on every pass fits (slower)");
  }
  box.setInformativeText(
      fits.isEmpty()
          ? QObject::tr("No smaller image fits. Running anyway may make the machine swap or stop "
                        "the run.")
          : QObject::tr("What fits: %1. Running anyway may make the machine swap.")
                .arg(fits.join(QObject::tr("; "))));
  box.setDetailedText(QString::fromStdString(estimate.describe()));
  QPushButton* anyway = box.addButton(QObject::tr("Run anyway"), QMessageBox::DestructiveRole);
  QPushButton* cancel = box.addButton(QMessageBox::Cancel);
  box.setDefaultButton(cancel);
  box.setEscapeButton(cancel);
  box.exec();
  const QAbstractButton* clicked = box.clickedButton();
  if (clicked != nullptr && clicked == smaller)
    return MemoryChoice::SmallerImage;
  if (clicked != nullptr && clicked == stream)
    return MemoryChoice::Stream;
  if (clicked != nullptr && clicked == anyway)
    return MemoryChoice::RunAnyway;
  return MemoryChoice::Cancel;
}

}  // namespace apertura::gui
