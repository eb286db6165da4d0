// After a run of the demo data set in the real window: the exports (FITS of every image with its
// WCS, unit and beam; PNG of a view; the metrics CSV) and the 3D surface view. The status bar and
// the event loop during the run are test_run_status's.
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <numeric>

#include <vtkDataArray.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>

#include "core/io/fits_image_io.h"
#include "gui/plots/convergence_panel.h"
#include "gui/plots/metrics_csv.h"
#include "gui/view/image_panel.h"
#include "gui/view/image_scaling.h"
#include "gui/view/image_view.h"
#include "gui/view/surface_view.h"
#include "gui/window/image_tabs.h"
#include "gui/window/main_window.h"
#include "gui/window/surface_tab.h"
#include "gui/window/window_screenshot.h"
#include "tests/gui/gui_test_support.h"

using apertura::gui::MainWindow;
using apertura::testing::artifact;

namespace {

constexpr int kIterations = 20;

// The header cards of a FITS primary HDU, keyword -> raw value text (quotes kept), read as the
// 80-character records the standard defines, so the test does not trust our own reader.
QMap<QString, QString> fitsCards(const QString& path) {
  QFile f(path);
  QMap<QString, QString> cards;
  if (!f.open(QIODevice::ReadOnly))
    return cards;
  const QByteArray data = f.readAll();
  for (qsizetype at = 0; at + 80 <= data.size(); at += 80) {
    const QString card = QString::fromLatin1(data.mid(at, 80));
    const QString key = card.left(8).trimmed();
    if (key == "END")
      break;
    if (card.mid(8, 2) != "= ")
      continue;
    QString value = card.mid(10);
    // A string value may contain '/', so strip the comment only after the closing quote.
    const qsizetype close = value.startsWith(" '") || value.startsWith("'")
                                ? value.indexOf('\'', value.indexOf('\'') + 1)
                                : -1;
    const qsizetype slash = value.indexOf('/', close < 0 ? 0 : close);
    if (slash >= 0)
      value = value.left(slash);
    cards.insert(key, value.trimmed());
  }
  return cards;
}

int distinctColours(const QImage& image) {
  std::set<QRgb> colours;
  const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
  for (int y = 0; y < rgb.height(); y += 2) {
    for (int x = 0; x < rgb.width(); x += 2)
      colours.insert(rgb.pixel(x, y));
  }
  return static_cast<int>(colours.size());
}

}  // namespace

class TestExportAndStatus : public QObject {
  Q_OBJECT

 private slots:
  // One demo run for the whole test; its results are exported by the slots below.
  void initTestCase() {
    window_ = apertura::testing::demoWindowForLbfgsRun(kIterations, dir_);
    if (!window_)
      return;

    // Nothing to export before a run: no image in any tab, no metrics.
    window_->centralTabs()->setCurrentIndex(0);
    QVERIFY(!window_->exportFitsAction()->isEnabled());
    QVERIFY(!window_->exportCsvAction()->isEnabled());
    QVERIFY(window_->exportViewPngAction()->isEnabled());

    apertura::testing::runToFinish(*window_);
  }

  void exportsEveryImageAsFitsWithWcsAndBeam() {
    for (const QString name : {"dirty", "psf", "model", "residual", "restored"}) {
      apertura::gui::ImagePanel* panel = window_->imageTabs()->panel(name);
      window_->centralTabs()->setCurrentWidget(panel);
      QVERIFY2(window_->exportFitsAction()->isEnabled(), qPrintable(name));
      const auto shown = panel->view()->image();
      QVERIFY(shown && !shown->empty());

      const QString path = dir_.path() + "/" + name + ".fits";
      QSignalSpy done(window_.get(), &MainWindow::exportFinished);
      QString error;
      QVERIFY2(window_->exportImageFits(path, &error), qPrintable(error));
      QVERIFY(done.wait(20000));
      QCOMPARE(done.first().at(0).toString(), path);
      QVERIFY2(done.first().at(1).toString().isEmpty(), qPrintable(done.first().at(1).toString()));

      const auto cards = fitsCards(path);
      QCOMPARE(cards.value("CTYPE1"), QString("'RA---SIN'"));
      QCOMPARE(cards.value("CTYPE2"), QString("'DEC--SIN'"));
      QCOMPARE(cards.value("NAXIS1").toInt(), shown->nx);
      QCOMPARE(cards.value("NAXIS2").toInt(), shown->ny);
      const double cdelt1 = cards.value("CDELT1").toDouble();
      QVERIFY(std::abs(cdelt1 - shown->wcs.cell_x_rad * 180.0 / M_PI) <= 1e-12);
      QVERIFY(cdelt1 < 0.0);
      QCOMPARE(cards.value("CRPIX1").toDouble(), shown->wcs.ref_pixel_x + 1.0);
      QVERIFY(cards.value("CRVAL2").toDouble() != 0.0);  // the demo field is not on the equator
      const QString unit = name == "model" ? "'JY/PIXEL'" : name == "psf" ? "''" : "'JY/BEAM'";
      QCOMPARE(cards.value("BUNIT").remove(' '), QString(unit).remove(' '));
      QVERIFY2(cards.contains("CTYPE3") && cards.value("CRVAL3").toDouble() > 1e9,
               "the frequency axis of the data is missing");
      if (name == "model") {
        QVERIFY(!cards.contains("BMAJ"));
      } else {
        QVERIFY2(cards.contains("BMAJ") && cards.contains("BMIN") && cards.contains("BPA"),
                 qPrintable(name));
        QVERIFY(shown->beam);
        QVERIFY(std::abs(cards.value("BMAJ").toDouble() - shown->beam->major_rad * 180.0 / M_PI) <
                1e-12);
        QVERIFY(cards.value("BMAJ").toDouble() >= cards.value("BMIN").toDouble());
      }

      // The pixels are the ones on screen, bit for bit (float32 both ways).
      const apertura::FitsImage read = apertura::readFitsImage(path.toStdString());
      QCOMPARE(read.nx, shown->nx);
      QCOMPARE(read.ny, shown->ny);
      int mismatches = 0;
      for (std::size_t i = 0; i < shown->pixels.size(); ++i) {
        const float a = shown->pixels[i];
        const float b = static_cast<float>(read.pixels[i]);
        if (!(a == b || (std::isnan(a) && std::isnan(b))))
          ++mismatches;
      }
      QVERIFY2(mismatches == 0,
               qPrintable(QString("%1: %2 pixels differ").arg(name).arg(mismatches)));
      // The provenance the run's own outputs carry (issue #35 item 9): the version, the whole
      // project as JSON, then the export itself.
      const QString history = QString::fromStdString(
          std::accumulate(read.history.begin(), read.history.end(), std::string(),
                          [](std::string a, const auto& b) { return a + b + "\n"; }));
      QVERIFY2(history.contains("RML imaging") && history.contains("\"regularizers\"") &&
                   history.contains("\"max_iterations\"") &&
                   history.contains("exported from the desktop application"),
               qPrintable(history.left(400)));
    }

    // The Data tab holds no image: the action is disabled and a direct call refuses.
    window_->centralTabs()->setCurrentIndex(0);
    QVERIFY(!window_->exportFitsAction()->isEnabled());
    QString error;
    QVERIFY(!window_->exportImageFits(dir_.path() + "/none.fits", &error));
    QVERIFY2(error.contains("No image"), qPrintable(error));
  }

  void exportFailureIsReportedNotThrown() {
    window_->centralTabs()->setCurrentWidget(window_->imageTabs()->panel("restored"));
    QSignalSpy done(window_.get(), &MainWindow::exportFinished);
    const QString path = dir_.path() + "/no-such-dir/restored.fits";
    QVERIFY(window_->exportImageFits(path));
    QVERIFY(done.wait(20000));
    QVERIFY2(done.first().at(1).toString().contains("no-such-dir"),
             qPrintable(done.first().at(1).toString()));
    QVERIFY(!QFile::exists(path));
  }

  void exportsTheViewAsPng() {
    window_->centralTabs()->setCurrentWidget(window_->imageTabs()->panel("restored"));
    for (bool whole : {false, true}) {
      const QString path = dir_.path() + (whole ? "/window.png" : "/view.png");
      QSignalSpy done(window_.get(), &MainWindow::exportFinished);
      QVERIFY(window_->exportViewPng(path, whole));
      QVERIFY(done.wait(20000));
      QVERIFY2(done.first().at(1).toString().isEmpty(), qPrintable(done.first().at(1).toString()));
      const QImage png(path);
      QVERIFY(!png.isNull());
      const QWidget* source =
          whole ? static_cast<QWidget*>(window_.get()) : window_->centralTabs()->currentWidget();
      QCOMPARE(png.size(), source->size() * source->devicePixelRatio());
      // A colormapped sky image has hundreds of colours; a blank grab has one or two.
      QVERIFY2(distinctColours(png) > 100, qPrintable(QString::number(distinctColours(png))));
    }
  }

  void exportsMetricsCsvOneRowPerIteration() {
    QVERIFY(window_->exportCsvAction()->isEnabled());
    const QString path = dir_.path() + "/metrics.csv";
    QSignalSpy done(window_.get(), &MainWindow::exportFinished);
    QVERIFY(window_->exportMetricsCsv(path));
    QVERIFY(done.wait(20000));
    QVERIFY2(done.first().at(1).toString().isEmpty(), qPrintable(done.first().at(1).toString()));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    const auto& metrics = window_->convergence()->metrics();
    QCOMPARE(lines.size(), metrics.size() + 1);
    QCOMPARE(metrics.size(), metrics.last().iteration);
    const QStringList header = lines.first().split(',');
    QCOMPARE(header, (QStringList{"iteration", "objective", "chi2", "l1", "chi2_per_dof",
                                  "gradient_norm", "step", "seconds", "elapsed_s"}));
    double elapsed = 0.0;
    for (int i = 0; i < metrics.size(); ++i) {
      const QStringList cells = lines[i + 1].split(',');
      QCOMPARE(cells.size(), header.size());
      const auto& m = metrics[i];
      elapsed += m.seconds;
      QCOMPARE(cells[0].toInt(), m.iteration);
      QVERIFY(std::abs(cells[1].toDouble() - m.objective) <= 1e-10 * std::abs(m.objective));
      QVERIFY(std::abs(cells[4].toDouble() - m.chi2_per_dof) <= 1e-10 * m.chi2_per_dof);
      QVERIFY(std::abs(cells[8].toDouble() - elapsed) <= 1e-9 * elapsed + 1e-12);
      // The terms add up to the objective.
      const double sum = cells[2].toDouble() + cells[3].toDouble();
      QVERIFY2(std::abs(sum - m.objective) <= 1e-8 * std::abs(m.objective),
               qPrintable(lines[i + 1]));
    }
  }

  // Terms are the union in first-seen order; a term an iteration lacks leaves its cell empty.
  void metricsCsvKeepsColumnsAligned() {
    apertura::engine::IterationMetrics a;
    a.iteration = 1;
    a.objective = 3.5;
    a.terms = {{"chi2", 3.0}, {"l1", 0.5}};
    a.seconds = 0.25;
    apertura::engine::IterationMetrics b = a;
    b.iteration = 2;
    b.terms = {{"chi2", 2.0}, {"tv", 0.125}};
    b.seconds = 0.5;
    const QStringList lines =
        QString::fromStdString(apertura::gui::metricsToCsv({a, b})).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines[0], QString("iteration,objective,chi2,l1,tv,chi2_per_dof,gradient_norm,step,"
                               "seconds,elapsed_s"));
    QCOMPARE(lines[1], QString("1,3.5,3,0.5,,0,0,0,0.25,0.25"));
    QCOMPARE(lines[2], QString("2,3.5,2,,0.125,0,0,0,0.5,0.75"));
  }

  void surfaceViewShowsTheImage() {
    apertura::gui::SurfaceTab* tab = window_->surfaceTab();
    window_->centralTabs()->setCurrentWidget(tab);
    QCOMPARE(tab->currentName(), QString("restored"));
    for (const QString name : {"dirty", "restored"}) {
      tab->setCurrentName(name);
      tab->refreshNow();
      apertura::gui::ImageView* view = window_->imageTabs()->panel(name)->view();
      const auto image = view->image();
      QVERIFY(image);
      apertura::gui::SurfaceView* surface = tab->view();
      QCOMPARE(surface->image(), image);
      vtkPolyData* data = surface->surface();
      QCOMPARE(surface->stride(), 1);  // 256 px: drawn at full resolution
      QCOMPARE(data->GetNumberOfPoints(), vtkIdType(image->nx) * image->ny);
      double b[6];
      data->GetBounds(b);
      QCOMPARE(b[0], 0.0);
      QCOMPARE(b[1], double(image->nx - 1));
      QCOMPARE(b[2], 0.0);
      QCOMPARE(b[3], double(image->ny - 1));
      const auto range = apertura::gui::finiteRange(image->pixels.data(), image->pixels.size());
      double r[2];
      data->GetPointData()->GetArray("value")->GetRange(r);
      QCOMPARE(r[0], range.min);
      QCOMPARE(r[1], range.max);
      // The brightest pixel is the highest point, and it has the 2D view's colour there.
      const auto peak =
          std::max_element(image->pixels.begin(), image->pixels.end()) - image->pixels.begin();
      double p[3];
      data->GetPoint(peak, p);
      QCOMPARE(b[5], p[2]);
      const int px = int(peak % image->nx), py = int(peak / image->nx);
      QCOMPARE(p[0], double(px));
      QCOMPARE(p[1], double(py));
      const QRgb want = view->renderer().picture().pixel(px, image->ny - 1 - py);
      auto* colours = vtkUnsignedCharArray::SafeDownCast(data->GetPointData()->GetArray("colors"));
      QVERIFY(colours);
      QCOMPARE(int(colours->GetValue(3 * peak)), qRed(want));
      QCOMPARE(int(colours->GetValue(3 * peak + 1)), qGreen(want));
      QCOMPARE(int(colours->GetValue(3 * peak + 2)), qBlue(want));
    }
    QTest::qWait(300);
    const QImage shot = tab->view()->grabRendered();
    QVERIFY(!shot.isNull());
    QVERIFY2(distinctColours(shot) > 100, qPrintable(QString::number(distinctColours(shot))));
    if (!artifact("surface-view.png").isEmpty())
      shot.save(artifact("surface-view.png"));
    // "Export view as PNG" on the 3D tab writes the rendered surface, not a black GL area.
    {
      const QString path = dir_.path() + "/surface.png";
      QSignalSpy done(window_.get(), &MainWindow::exportFinished);
      QVERIFY(window_->exportViewPng(path));
      QVERIFY(done.wait(20000));
      const QImage png(path);
      QVERIFY(!png.isNull());
      QVERIFY2(distinctColours(png) > 100, qPrintable(QString::number(distinctColours(png))));
    }
    // The 3D tab exports the image it shows.
    QString name;
    QCOMPARE(window_->currentImage(&name),
             window_->imageTabs()->panel("restored")->view()->image());
    QCOMPARE(name, QString("restored"));
    const QString shot_path = artifact("export-status-3d-window.png");
    if (!shot_path.isEmpty()) {
      QString error;
      QVERIFY2(apertura::gui::saveWindowScreenshot(*window_, shot_path, &error), qPrintable(error));
    }
  }

  void cleanupTestCase() { window_.reset(); }

 private:
  QTemporaryDir dir_;
  std::unique_ptr<MainWindow> window_;
};

int main(int argc, char** argv) {
  return apertura::testing::runWindowTest<TestExportAndStatus>(argc, argv);
}

#include "test_export_and_status.moc"
