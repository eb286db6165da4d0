// Issue #13: the run settings panel's memory estimate shows the RAM a run needs with the
// optimizer's share (the L-BFGS history) and what the history spills to disk, and follows the
// history settings as they change (from a project or the panel's own controls).
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QRegularExpression>
#include <QSpinBox>
#include <QtTest>

#include "core/engine/memory_estimate.h"
#include "core/engine/process_resources.h"
#include "core/project/project_file.h"
#include "gui/panels/memory_estimate_text.h"
#include "gui/panels/run_settings_panel.h"
#include "tests/gui/gui_test_support.h"

using apertura::gui::RunSettingsPanel;
namespace project = apertura::project;

namespace {

constexpr std::uint64_t kMiB = 1ull << 20;

// 2048^2 pixels: one double image is 32 MiB. L-BFGS with m = 10 keeps 2 m history vectors plus 3
// working ones (the direction, the trial point and its gradient); with k pairs in RAM, 2 k + 2 (the
// pair being read back) and 2 (m - k) on disk.
project::ProjectSettings lbfgs2048() {
  project::ProjectSettings s = project::defaultProject();
  s.imaging.nx = s.imaging.ny = 2048;
  s.optimizer.method = apertura::project::OptimizerMethod::Lbfgs;
  s.optimizer.history = 10;
  s.data.memory_budget_gb = 4.0;
  return s;
}

QString memoryText(RunSettingsPanel& panel) {
  for (QLabel* l : panel.findChildren<QLabel*>()) {
    if (l->text().startsWith("Memory estimate:"))
      return l->text();
  }
  return {};
}

// The panel's line must be the estimate of exactly these settings.
QString expectedTotal(const project::ProjectSettings& s) {
  const auto e = apertura::engine::estimateMemory(s, apertura::engine::DataVolume{},
                                                  apertura::engine::physicalMemoryBytes());
  return "RAM " + apertura::gui::formatBytes(e.totalBytes()) + " ";
}

}  // namespace

class TestMemoryEstimateLabel : public QObject {
  Q_OBJECT
 private slots:
  void formatsBinaryUnits() {
    using apertura::gui::formatBytes;
    QCOMPARE(formatBytes(0), QString("0 B"));
    QCOMPARE(formatBytes(1536), QString("1.5 KiB"));
    QCOMPARE(formatBytes(240 * kMiB), QString("240 MiB"));
    QCOMPARE(formatBytes(1229 * kMiB), QString("1.2 GiB"));
    QCOMPARE(formatBytes(12 * 1024 * kMiB), QString("12 GiB"));
  }

  void showsOptimizerAndSpillFromTheProject() {
    RunSettingsPanel panel;
    project::ProjectSettings s = lbfgs2048();
    panel.setSettings(s);
    QString text = memoryText(panel);
    // All 10 pairs in RAM: (20 + 3) x 32 MiB, nothing on disk.
    QVERIFY2(text.contains("(optimizer 736 MiB)") && !text.contains("on disk"), qPrintable(text));
    QVERIFY2(text.contains(expectedTotal(s)), qPrintable(text));
    QVERIFY2(text.contains("budget 4.0 GiB"), qPrintable(text));  // the project's own budget

    // 2 pairs in RAM: (2 x 2 + 2 + 3) x 32 MiB in RAM, 2 x 8 x 32 MiB on disk.
    s.optimizer.in_memory_limit = 2;
    panel.setSettings(s);
    text = memoryText(panel);
    QVERIFY2(text.contains("(optimizer 288 MiB) + 512 MiB on disk (L-BFGS spill)"),
             qPrintable(text));
    QVERIFY2(text.contains(expectedTotal(s)), qPrintable(text));

    // Float pairs halve the history, in RAM and on disk: 6 x 16 + 3 x 32 MiB (the direction, the
    // trial point and its gradient stay double); 16 x 16 MiB.
    s.optimizer.history_precision = apertura::project::Precision::Float;
    panel.setSettings(s);
    text = memoryText(panel);
    QVERIFY2(text.contains("(optimizer 192 MiB) + 256 MiB on disk (L-BFGS spill)"),
             qPrintable(text));
    // The full breakdown is the tooltip.
    QLabel* label = nullptr;
    for (QLabel* l : panel.findChildren<QLabel*>()) {
      if (l->text() == text)
        label = l;
    }
    QVERIFY(label);
    QVERIFY2(label->toolTip().contains("L-BFGS spill on disk"), qPrintable(label->toolTip()));
    if (const QString shot = apertura::testing::artifact("memory-estimate-panel.png");
        !shot.isEmpty()) {
      panel.resize(380, panel.sizeHint().height() + 40);
      QVERIFY(panel.grab().save(shot));
    }
  }

  void followsThePanelsHistoryControls() {
    RunSettingsPanel panel;
    panel.setSettings(lbfgs2048());
    auto* history = panel.findChild<QSpinBox*>("lbfgs-history");
    auto* in_ram = panel.findChild<QSpinBox*>("lbfgs-pairs-in-ram");
    QVERIFY(history && in_ram);
    QCOMPARE(in_ram->value(), 0);
    QCOMPARE(in_ram->specialValueText(), QString("all"));

    in_ram->setValue(5);
    // (2 x 5 + 2 + 3) x 32 MiB in RAM, 2 x 5 x 32 MiB on disk.
    QString text = memoryText(panel);
    QVERIFY2(text.contains("(optimizer 480 MiB) + 320 MiB on disk (L-BFGS spill)"),
             qPrintable(text));
    auto s = panel.settings(lbfgs2048());
    QVERIFY(s);
    QCOMPARE(*s->optimizer.in_memory_limit, 5);

    // A shorter history clamps the pairs in RAM: 4 of 4, nothing spills.
    history->setValue(4);
    QCOMPARE(in_ram->value(), 4);
    text = memoryText(panel);
    QVERIFY2(text.contains("(optimizer 352 MiB)") && !text.contains("on disk"), qPrintable(text));
    s = panel.settings(lbfgs2048());
    QCOMPARE(s->optimizer.history, 4);

    in_ram->setValue(1);  // 2 + 2 + 3 vectors in RAM, 2 x 3 on disk
    text = memoryText(panel);
    QVERIFY2(text.contains("(optimizer 224 MiB) + 192 MiB on disk (L-BFGS spill)"),
             qPrintable(text));

    // Only L-BFGS has a history: the controls are off and nothing is spilled.
    for (QComboBox* c : panel.findChildren<QComboBox*>()) {
      if (c->findText("cg-pr") >= 0)
        c->setCurrentText("cg-pr");
    }
    QVERIFY(!history->isEnabled());
    QVERIFY(!in_ram->isEnabled());
    text = memoryText(panel);
    QVERIFY2(text.contains("(optimizer 96 MiB)") && !text.contains("on disk"), qPrintable(text));
  }

  // The grid the chunks are summed into: double by default with float precision (a double grid
  // of 4096^2 cells, 256 MiB, instead of a float one of 128 MiB); not offered in double precision.
  void gridAccumulationFollowsThePanel() {
    RunSettingsPanel panel;
    panel.setSettings(lbfgs2048());
    auto* accumulation = panel.findChild<QComboBox*>("grid-accumulation");
    QVERIFY(accumulation);
    QVERIFY(accumulation->isEnabled());
    QCOMPARE(accumulation->currentText(), QString("double"));
    auto wide = panel.settings(lbfgs2048());
    QVERIFY(wide);
    QCOMPARE(wide->imaging.grid_accumulation, apertura::project::Precision::Double);
    QVERIFY2(memoryText(panel).contains(expectedTotal(*wide)), qPrintable(memoryText(panel)));

    accumulation->setCurrentText("float");
    auto narrow = panel.settings(lbfgs2048());
    QVERIFY(narrow);
    QCOMPARE(narrow->imaging.grid_accumulation, apertura::project::Precision::Float);
    QVERIFY2(memoryText(panel).contains(expectedTotal(*narrow)), qPrintable(memoryText(panel)));
    const auto volume = apertura::engine::DataVolume{};
    const auto machine = apertura::engine::physicalMemoryBytes();
    // The run's accumulation grid (4096^2), and, with a cross-validated lambda, that of the
    // operator gridding a fold's PSF on the doubled image (four times as large).
    const std::uint64_t grids = apertura::project::hasAutomaticLambda(*wide) ? 5 : 1;
    QCOMPARE(apertura::engine::estimateMemory(*wide, volume, machine).grid_bytes -
                 apertura::engine::estimateMemory(*narrow, volume, machine).grid_bytes,
             grids * 4096 * 4096 * 8);

    auto* precision = panel.findChild<QComboBox*>("precision");
    QVERIFY(precision);
    precision->setCurrentText("double");
    QVERIFY(!accumulation->isEnabled());
    project::ProjectSettings loaded = lbfgs2048();
    loaded.imaging.grid_accumulation = apertura::project::Precision::Float;
    panel.setSettings(loaded);
    QCOMPARE(accumulation->currentText(), QString("float"));
  }

  void visibilitiesModeFollowsThePanel() {
    RunSettingsPanel panel;
    panel.setSettings(lbfgs2048());
    auto* mode = panel.findChild<QComboBox*>("data-mode");
    QVERIFY(mode);
    QCOMPARE(mode->currentData().toString(), QString("auto"));
    QVERIFY2(!memoryText(panel).contains("streamed"), qPrintable(memoryText(panel)));
    mode->setCurrentIndex(mode->findData("streaming"));
    QVERIFY2(memoryText(panel).contains("visibilities streamed from disk"),
             qPrintable(memoryText(panel)));
    auto s = panel.settings(lbfgs2048());
    QVERIFY(s);
    QCOMPARE(s->data.mode, apertura::ReadMode::kStreaming);
    project::ProjectSettings resident = lbfgs2048();
    resident.data.mode = apertura::ReadMode::kResident;
    panel.setSettings(resident);
    QCOMPARE(mode->currentData().toString(), QString("resident"));
  }
};

QTEST_MAIN(TestMemoryEstimateLabel)
#include "test_memory_estimate_label.moc"
