// Opening a file that only a reader plugin understands (the CSV example plugin of the build tree,
// found through APERTURA_PLUGIN_PATH) from the real window: File > Open data file offers a filter
// built from the plugin's name and patterns, and choosing the file shows its summary and uv
// coverage like a built-in format.
#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextStream>
#include <QtTest>

#include <cmath>

#include "core/plugin/plugin_registry.h"
#include "gui/controller/dataset_file_filters.h"
#include "gui/panels/dataset_summary_panel.h"
#include "gui/view/uv_coverage_view.h"
#include "gui/view/vtk_host_widget.h"
#include "gui/window/main_window.h"

using apertura::gui::MainWindow;

namespace {

constexpr int kRows = 40;

// A CSV file of the documented format: kRows baselines on a circle of radius 100..490 m.
void writeCsv(const QString& path) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Text));
  QTextStream out(&f);
  out << "# telescope = TESTCSV\n# phase_centre_deg = 45.0 -30.0\n";
  out << "u_m,v_m,w_m,frequency_hz,re_jy,im_jy,weight\n";
  for (int i = 0; i < kRows; ++i) {
    const double r = 100.0 + 10.0 * i;
    const double a = 0.37 * i;
    out << r * std::cos(a) << ',' << r * std::sin(a) << ",0.0,1.4e9,1.0,0.0,1.0\n";
  }
}

QAction* findAction(QMenu* menu, const QString& text) {
  for (QAction* a : menu->actions()) {
    if (a->text() == text)
      return a;
  }
  return nullptr;
}

}  // namespace

class TestOpenPluginData : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    csv_ = dir_.path() + "/baselines.csv";
    writeCsv(csv_);
    const auto& registry = apertura::plugin::PluginRegistry::global();
    bool csv_loaded = false;
    for (const auto& p : registry.plugins())
      csv_loaded = csv_loaded || std::string(p.api->name) == "csv";
    QVERIFY2(csv_loaded, qPrintable(QString("the csv plugin is not loaded (searched %1)")
                                        .arg(QString::fromStdString(registry.searchPathText()))));
  }

  void patternsAreCleanedForNameFilters() {
    using apertura::gui::readerPatterns;
    QCOMPARE(readerPatterns("*.csv *.txt"), QStringList({"*.csv", "*.txt"}));
    QCOMPARE(readerPatterns("  *.vis\t*.vis  (bad) *.a;b *.x)"), QStringList({"*.vis"}));
    QVERIFY(readerPatterns(nullptr).isEmpty());
    QVERIFY(readerPatterns("").isEmpty());
  }

  void filtersNameEveryLoadedReader() {
    const QStringList filters =
        apertura::gui::datasetFileFilters(apertura::plugin::PluginRegistry::global());
    QCOMPARE(filters.first(), QString("All data files (*.uvfits *.uvf *.fits *.csv *.txt)"));
    QVERIFY2(filters.contains("UVFITS (*.uvfits *.uvf *.fits)"), qPrintable(filters.join(";;")));
    QVERIFY2(filters.contains("CSV — plugin csv (*.csv *.txt)"), qPrintable(filters.join(";;")));
    QCOMPARE(filters.last(), QString("All files (*)"));
  }

  // The menu action opens a dialog with those filters; choosing the CSV file loads it through the
  // plugin, and the summary and the uv coverage show it.
  void openDataFileDialogLoadsPluginFormat() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QMenu* file = w.menuBar()->actions().first()->menu();
    QAction* open = findAction(file, "Open data &file (UVFITS, plugin formats)…");
    QVERIFY(open);
    open->trigger();
    auto* dialog = w.findChild<QFileDialog*>("open-data-file-dialog");
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QVERIFY2(dialog->nameFilters().contains("CSV — plugin csv (*.csv *.txt)"),
             qPrintable(dialog->nameFilters().join(";;")));
    QCOMPARE(dialog->fileMode(), QFileDialog::ExistingFile);

    QSignalSpy loaded(&w, &MainWindow::datasetLoaded);
    QSignalSpy failed(&w, &MainWindow::datasetFailed);
    dialog->selectNameFilter("CSV — plugin csv (*.csv *.txt)");
    dialog->setDirectory(dir_.path());
    dialog->selectFile(csv_);
    static_cast<QDialog*>(dialog)->accept();  // QFileDialog::accept() is protected
    QVERIFY2(loaded.wait(20000) || !failed.isEmpty(), "nothing happened");
    QVERIFY2(failed.isEmpty(),
             qPrintable(failed.isEmpty() ? QString() : failed.first().at(1).toString()));
    QCOMPARE(loaded.first().at(0).toString(), csv_);
    const QString text = w.summaryPanel()->text();
    QVERIFY2(text.contains("Format:        CSV"), qPrintable(text));
    QVERIFY2(text.contains(QString("Rows:          %1 ").arg(kRows)), qPrintable(text));
    QVERIFY2(text.contains("TESTCSV"), qPrintable(text));
    // Each row with its conjugate.
    QCOMPARE(w.uvView()->pointCount(), 2 * kRows);
    QVERIFY(w.windowTitle().contains("baselines.csv"));
    // The coverage is drawn: the circle of points differs from the empty placeholder frame.
    const QImage shot = w.uvView()->grabRendered();
    QVERIFY(!shot.isNull());
    int bright = 0;
    for (int y = 0; y < shot.height(); ++y) {
      for (int x = 0; x < shot.width(); ++x)
        bright += qGray(shot.pixel(x, y)) > 96 ? 1 : 0;
    }
    QVERIFY2(bright > 40, qPrintable(QString("%1 bright pixels").arg(bright)));
  }

  // A file no reader knows is refused with the plugins searched, and the window stays usable.
  void unknownFileShowsReadableError() {
    MainWindow w;
    const QString junk = dir_.path() + "/junk.dat";
    QFile f(junk);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("not visibilities\n");
    f.close();
    QSignalSpy failed(&w, &MainWindow::datasetFailed);
    w.openDataset(junk);
    QVERIFY(failed.wait(20000));
    const QString message = failed.first().at(1).toString();
    QVERIFY2(message.contains("junk.dat"), qPrintable(message));
    QVERIFY2(message.contains("plugin") || message.contains("format"), qPrintable(message));
  }

 private:
  QTemporaryDir dir_;
  QString csv_;
};

int main(int argc, char** argv) {
  apertura::gui::VtkHostWidget::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  TestOpenPluginData test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_open_plugin_data.moc"
