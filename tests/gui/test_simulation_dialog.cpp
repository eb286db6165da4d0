// File > New simulated data set: the output format choice and the output's extension follow each
// other (the core decides the format by extension), and a UVFITS request simulates a readable
// UVFITS file.
#include <QComboBox>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QtTest>

#include "core/io/visibility_source_factory.h"
#include "core/sim/simulation_request.h"
#include "gui/dialogs/simulation_dialog.h"

using namespace apertura;

class TestSimulationDialog : public QObject {
  Q_OBJECT
 private slots:
  void formatFollowsTheExtensionAndBack() {
    QTemporaryDir dir;
    gui::SimulationDialog dialog;
    auto* format = dialog.findChild<QComboBox*>("outputFormat");
    QVERIFY(format != nullptr);
    QLineEdit* output = nullptr;
    for (auto* edit : dialog.findChildren<QLineEdit*>())
      if (edit->text().endsWith("simulated.ms"))
        output = edit;
    QVERIFY(output != nullptr);
    QCOMPARE(format->currentText(), QString("Measurement Set"));

    // Choosing UVFITS rewrites the extension; the request then writes UVFITS.
    dialog.setOutput(dir.filePath("run1.ms"));
    format->setCurrentIndex(1);
    emit format->activated(1);
    QCOMPARE(output->text(), dir.filePath("run1.uvfits"));
    QCOMPARE(QString::fromStdString(dialog.request().output), dir.filePath("run1.uvfits"));
    format->setCurrentIndex(0);
    emit format->activated(0);
    QCOMPARE(output->text(), dir.filePath("run1.ms"));

    // A picture of the dialog for people reviewing the layout.
    const QString artifacts = qEnvironmentVariable("APERTURA_TEST_ARTIFACTS");
    if (!artifacts.isEmpty()) {
      dialog.show();
      QVERIFY(QTest::qWaitForWindowExposed(&dialog));
      QVERIFY(dialog.grab().save(artifacts + "/simulation-dialog.png"));
    }

    // Typing a UVFITS name selects UVFITS.
    output->setFocus();
    output->clear();
    QTest::keyClicks(output, dir.filePath("typed.uvf"));
    QCOMPARE(format->currentText(), QString("UVFITS"));

    // The request as the dialog builds it simulates a UVFITS file our reader opens.
    sim::SimulationRequest r = dialog.request();
    r.array = "random:300:5:12";
    r.hours = 0.2;
    const sim::SimulationOutcome out = sim::runSimulation(r);
    QVERIFY(out.format == sim::OutputFormat::Uvfits);
    ReadOptions options;
    QCOMPARE(openVisibilitySource(r.output, options)->info().format, std::string("UVFITS"));
  }
};

QTEST_MAIN(TestSimulationDialog)
#include "test_simulation_dialog.moc"
