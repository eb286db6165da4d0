// The run settings' backend choice: Auto, CPU and one entry per CUDA device from the core device
// query (run off the GUI thread at start-up), a disabled "GPU (not available: ...)" entry when
// there is none; the choice is written to imaging.backend / imaging.gpu_device and read back.
// The status bar names the backend a run used, and GPU memory is shown/plotted when non-zero.
#include <QAbstractItemView>
#include <QApplication>
#include <QComboBox>
#include <QStandardItemModel>
#include <QtTest>

#include "core/imaging/gpu_devices.h"
#include "gui/controller/json_event_parser.h"
#include "gui/panels/backend_choices.h"
#include "gui/panels/memory_estimate_text.h"
#include "gui/panels/run_settings_panel.h"
#include "gui/plots/convergence_panel.h"
#include "gui/plots/metrics_chart.h"
#include "gui/window/run_status_widget.h"

using namespace apertura;
using namespace apertura::gui;

namespace {

imaging::GpuInventory twoDevices() {
  imaging::GpuInventory inv;
  inv.built_with_cuda = true;
  imaging::GpuDevice a;
  a.index = 0;
  a.name = "NVIDIA H200";
  a.total_bytes = std::size_t(150) * 1000 * 1000 * 1000;  // 139.7 GiB
  imaging::GpuDevice b = a;
  b.index = 1;
  b.name = "NVIDIA L4";
  b.total_bytes = std::size_t(24) << 30;
  inv.devices = {a, b};
  return inv;
}

QStringList labels(const QComboBox* c) {
  QStringList out;
  for (int i = 0; i < c->count(); ++i)
    out << c->itemText(i);
  return out;
}

bool enabled(const QComboBox* c, int i) {
  const auto* model = qobject_cast<const QStandardItemModel*>(c->model());
  return model && model->item(i)->isEnabled();
}

}  // namespace

class TestBackendChoice : public QObject {
  Q_OBJECT
 private slots:
  void choicesFromTheInventory() {
    const auto with = backendChoices(twoDevices());
    QCOMPARE(with.size(), 4);
    QCOMPARE(with[0].value, QString("auto"));
    QCOMPARE(with[1].value, QString("cpu"));
    QCOMPARE(with[2].label, QString("GPU 0: NVIDIA H200, 140 GiB"));
    QCOMPARE(with[2].value, QString("cuda:0"));
    QCOMPARE(with[3].label, QString("GPU 1: NVIDIA L4, 24 GiB"));
    QVERIFY(with[3].enabled);

    const auto none = backendChoices(imaging::GpuInventory{});
    QCOMPARE(none.size(), 3);
    QCOMPARE(none[2].label, QString("GPU (not available: built without CUDA)"));
    QVERIFY(!none[2].enabled);
    imaging::GpuInventory no_device;
    no_device.built_with_cuda = true;
    QCOMPARE(backendChoices(no_device)[2].label, QString("GPU (not available: no device)"));
  }

  void valuesRoundTrip() {
    imaging::Backend backend = imaging::Backend::Auto;
    int device = 0;
    applyBackendValue("cuda:3", backend, device);
    QCOMPARE(backend, imaging::Backend::Cuda);
    QCOMPARE(device, 3);
    QCOMPARE(backendValue(backend, device), QString("cuda:3"));
    applyBackendValue("cpu", backend, device);
    QCOMPARE(backend, imaging::Backend::Cpu);
    QCOMPARE(backendValue(imaging::Backend::Auto, 5), QString("auto"));
  }

  void panelQueriesDevicesAndWritesTheChoice() {
    RunSettingsPanel panel;
    auto* combo = panel.findChild<QComboBox*>("backend");
    QVERIFY(combo);
    // The background query of this machine ends (no GPU here: a disabled GPU entry; with one:
    // an entry per device).
    QTRY_VERIFY_WITH_TIMEOUT(panel.gpuDevicesListed(), 20000);
    const imaging::GpuInventory here = imaging::queryGpuDevices();
    QCOMPARE(labels(combo).mid(0, 2), (QStringList{"Auto", "CPU"}));
    if (here.devices.empty()) {
      QCOMPARE(combo->count(), 3);
      QVERIFY(labels(combo)[2].startsWith("GPU (not available: "));
      QVERIFY(!enabled(combo, 2));
    } else {
      QCOMPARE(combo->count(), 2 + int(here.devices.size()));
    }
    if (const QString dir = qEnvironmentVariable("APERTURA_TEST_ARTIFACTS"); !dir.isEmpty()) {
      panel.show();
      combo->showPopup();
      QApplication::processEvents();
      if (combo->view() && combo->view()->window())
        combo->view()->window()->grab().save(dir + "/backend-choices-this-machine.png");
      combo->hidePopup();
    }

    // Two devices (as on a GPU machine): choosing the second writes cuda / 1.
    panel.setGpuInventory(twoDevices());
    QCOMPARE(labels(combo), (QStringList{"Auto", "CPU", "GPU 0: NVIDIA H200, 140 GiB",
                                         "GPU 1: NVIDIA L4, 24 GiB"}));
    // Kept for a person to look at: the panel and the open list.
    if (const QString dir = qEnvironmentVariable("APERTURA_TEST_ARTIFACTS"); !dir.isEmpty()) {
      panel.resize(420, 900);
      panel.show();
      combo->showPopup();
      QApplication::processEvents();
      panel.grab().save(dir + "/backend-panel.png");
      if (combo->view() && combo->view()->window())
        combo->view()->window()->grab().save(dir + "/backend-choices.png");
      combo->hidePopup();
    }
    combo->setCurrentIndex(3);
    auto s = panel.settings(project::ProjectSettings{});
    QVERIFY(s);
    QCOMPARE(s->imaging.backend, apertura::imaging::Backend::Cuda);
    QCOMPARE(s->imaging.gpu_device, 1);
    combo->setCurrentIndex(1);
    s = panel.settings(project::ProjectSettings{});
    QVERIFY(s);
    QCOMPARE(s->imaging.backend, apertura::imaging::Backend::Cpu);

    // A project's choice is shown; a device this machine lacks stays selected (named so).
    project::ProjectSettings p;
    p.imaging.backend = apertura::imaging::Backend::Cuda;
    p.imaging.gpu_device = 0;
    panel.setSettings(p);
    QCOMPARE(combo->currentText(), QString("GPU 0: NVIDIA H200, 140 GiB"));
    p.imaging.gpu_device = 7;
    panel.setSettings(p);
    QCOMPARE(combo->currentText(), QString("GPU 7 (not found on this machine)"));
    s = panel.settings(project::ProjectSettings{});
    QVERIFY(s);
    QCOMPARE(s->imaging.gpu_device, 7);
    p.imaging.backend = apertura::imaging::Backend::Auto;
    panel.setSettings(p);
    QCOMPARE(combo->currentText(), QString("Auto"));
    QCOMPARE(panel.settings(project::ProjectSettings{})->imaging.backend,
             apertura::imaging::Backend::Auto);

    // Without devices the GPU entry cannot be chosen.
    panel.setGpuInventory(imaging::GpuInventory{});
    QCOMPARE(combo->currentText(), QString("Auto"));
    QVERIFY(!enabled(combo, 2));
  }

  void statusBarNamesTheBackend() {
    RunStatusWidget w;
    w.start(10);
    w.stageStarted("dirty");
    w.progress(1.0,
               "dirty image operator: cpu (auto: no CUDA device: no CUDA-capable device is "
               "detected); kernel=es W=6");
    QCOMPARE(w.backendText(), QString("CPU"));
    w.stageStarted("optimize");
    w.progress(1.0,
               "operator: cuda device 0: NVIDIA H200, 139.8 GiB (139.2 GiB free), compute 9.0, "
               "132 SMs (auto); backend=cuda device=0");
    QCOMPARE(w.backendText(), QString("GPU 0: NVIDIA H200"));
    QVERIFY(w.text().contains("GPU 0: NVIDIA H200"));
    w.progress(0.5, "reading rows");  // other messages leave it alone
    QCOMPARE(w.backendText(), QString("GPU 0: NVIDIA H200"));

    engine::ResourceSample sample;
    sample.rss_bytes = 100u << 20;
    sample.peak_rss_bytes = 120u << 20;
    w.addResources(sample);
    QVERIFY(!w.text().contains("GPU 0 MiB"));
    QVERIFY(!w.text().contains(", GPU"));
    sample.gpu_bytes = 512u << 20;
    w.addResources(sample);
    QVERIFY2(w.text().contains(", GPU 512 MiB"), qPrintable(w.text()));
  }

  void memoryEstimateNamesTheGpuPart() {
    engine::MemoryEstimate e;
    e.budget_bytes = 1ull << 30;
    QVERIFY(!memoryEstimateText(e).contains("GPU"));
    e.device_bytes = 3ull << 30;
    e.optimizer_bytes = 5ull << 20;
    QVERIFY2(memoryEstimateText(e).endsWith("; GPU 3.0 GiB"), qPrintable(memoryEstimateText(e)));
    QVERIFY(memoryEstimateText(e).startsWith("RAM 5.0 MiB (optimizer 5.0 MiB)"));
    e.optimizer_bytes = 0;
    e.optimizer_on_device = true;
    QVERIFY2(memoryEstimateText(e).endsWith("; GPU 3.0 GiB (with the optimizer)"),
             qPrintable(memoryEstimateText(e)));
    QVERIFY2(memoryEstimateText(e).startsWith("RAM 0 B (optimizer on the GPU)"),
             qPrintable(memoryEstimateText(e)));
  }

  void externalRunsCarryGpuBytes() {
    // apertura-cli run --json writes gpu_bytes in its resources events; older lines lack it.
    struct Last : engine::RunObserver {
      void resources(const engine::ResourceSample& s) override { sample = s; }
      engine::ResourceSample sample;
    } last;
    JsonEventParser::feed(
        R"({"cpu_s":1.0,"event":"resources","gpu_bytes":805306368,"peak_rss_bytes":2,"rss_bytes":1,"tracked_bytes":0,"wall_s":1.0})",
        last);
    QCOMPARE(last.sample.gpu_bytes, std::uint64_t(805306368));
    JsonEventParser::feed(
        R"({"cpu_s":1.0,"event":"resources","peak_rss_bytes":2,"rss_bytes":1,"tracked_bytes":0,"wall_s":2.0})",
        last);
    QCOMPARE(last.sample.gpu_bytes, std::uint64_t(0));
  }

  void memoryChartPlotsGpuOnlyWhenUsed() {
    ConvergencePanel panel;
    engine::ResourceSample s;
    s.wall_s = 1.0;
    s.rss_bytes = 10u << 20;
    panel.addResources(s);
    QVERIFY(!panel.memoryChart()->seriesNames().contains("GPU"));
    s.wall_s = 2.0;
    s.gpu_bytes = 64u << 20;
    panel.addResources(s);
    QVERIFY(panel.memoryChart()->seriesNames().contains("GPU"));
  }
};

int main(int argc, char** argv) {
  // Plain widgets: no display needed.
  if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
    qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  TestBackendChoice t;
  return QTest::qExec(&t, argc, argv);
}
#include "test_backend_choice.moc"
