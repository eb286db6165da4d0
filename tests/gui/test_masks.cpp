// Interactive masks: shapes drawn with the mouse on an image view land in the mask panel in image
// pixel coordinates, rasterise to the expected pixels, subtract, import/export as DS9 regions,
// and a run of the demo data set with "use mask" keeps every model pixel outside the mask at 0.
#include <QApplication>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <iomanip>
#include <iterator>

#include "core/pipeline/mask_raster.h"
#include "core/project/ds9_regions.h"
#include "core/sim/demo_dataset.h"
#include "gui/panels/mask_panel.h"
#include "gui/panels/run_settings_panel.h"
#include "gui/view/image_panel.h"
#include "gui/view/image_view.h"
#include "gui/window/image_tabs.h"
#include "gui/window/main_window.h"
#include "gui/window/window_screenshot.h"

using apertura::gui::ImageView;
using apertura::gui::MaskPanel;
using apertura::gui::MaskTool;
using apertura::project::MaskRegion;

namespace {

constexpr int kSize = 64;
constexpr double kZoom = 10.0;

apertura::gui::ImageData testImage() {
  apertura::gui::ImageData d;
  d.nx = d.ny = kSize;
  d.pixels.resize(kSize * kSize);
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x)
      d.pixels[y * kSize + x] = float(std::sin(0.2 * x) * std::cos(0.15 * y));
  }
  d.unit = "Jy/beam";
  d.wcs.ref_ra_rad = 1.2;
  d.wcs.ref_dec_rad = -0.5;
  d.wcs.ref_pixel_x = d.wcs.ref_pixel_y = kSize / 2;
  d.wcs.cell_x_rad = -1e-6;
  d.wcs.cell_y_rad = 1e-6;
  return d;
}

QPoint at(const ImageView& v, double x, double y) {
  return v.imageToWidget(QPointF(x, y)).toPoint();
}

void drag(ImageView& v, QPointF from, QPointF to, Qt::KeyboardModifiers mods = {}) {
  QTest::mousePress(&v, Qt::LeftButton, mods, at(v, from.x(), from.y()));
  QTest::mouseMove(&v, at(v, (from.x() + to.x()) / 2, (from.y() + to.y()) / 2));
  QTest::mouseMove(&v, at(v, to.x(), to.y()));
  QTest::mouseRelease(&v, Qt::LeftButton, mods, at(v, to.x(), to.y()));
}

int countOn(const std::vector<double>& mask) {
  int n = 0;
  for (double v : mask)
    n += v != 0.0 ? 1 : 0;
  return n;
}

// Each drawn value within one screen pixel of the intended image coordinate.
void compareDrawn(const std::vector<double>& got, const std::vector<double>& want) {
  QCOMPARE(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    QVERIFY2(std::abs(got[i] - want[i]) <= 1.0 / kZoom,
             qPrintable(QString("value %1: %2 != %3").arg(i).arg(got[i]).arg(want[i])));
  }
}

QString artifact(const QString& name) {
  const QString dir = qEnvironmentVariable("APERTURA_TEST_ARTIFACTS");
  return dir.isEmpty() ? QString() : dir + "/" + name;
}

}  // namespace

class TestMasks : public QObject {
  Q_OBJECT
 private slots:
  void init() {
    view_ = std::make_unique<ImageView>();
    panel_ = std::make_unique<MaskPanel>();
    view_->setImage(testImage());
    view_->resize(640, 640);
    view_->show();
    QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
    view_->setView(QPointF(31.5, 31.5), kZoom);
    panel_->addView(view_.get());
  }
  void cleanup() {
    panel_.reset();
    view_.reset();
  }

  void drawsRectangleEllipsePolygon() {
    QSignalSpy changed(panel_.get(), &MaskPanel::changed);
    // Pan mode: a drag pans and draws nothing.
    const QPointF centre = view_->center();
    drag(*view_, {20.0, 20.0}, {25.0, 20.0});
    QVERIFY(panel_->regions().empty());
    // (By about 5 pixels; the platform may add a synthetic move at the real cursor position.)
    QVERIFY2(view_->center().x() < centre.x() - 4.0,
             qPrintable(QString("%1 %2").arg(view_->center().x()).arg(centre.x())));
    view_->setView(QPointF(31.5, 31.5), kZoom);

    // Rectangle over pixel centres 10..30 x 20..40 (edges on half pixels): 21 x 21 pixels.
    panel_->setTool(MaskTool::Rectangle);
    QCOMPARE(view_->maskTool(), MaskTool::Rectangle);
    drag(*view_, {9.5, 19.5}, {30.5, 40.5});
    QCOMPARE(panel_->regions().size(), std::size_t(1));
    const MaskRegion rect = panel_->regions()[0];
    QCOMPARE(rect.shape, std::string("rectangle"));
    QVERIFY(!rect.subtract);
    compareDrawn(rect.values, {9.5, 19.5, 30.5, 40.5});
    QCOMPARE(countOn(apertura::pipeline::rasterizeMask(panel_->regions(), kSize, kSize)), 441);
    QVERIFY(changed.count() >= 1);

    // Ellipse dragged from corner to corner of its box: centre (45, 13), semi-axes 5.5 x 3.5.
    panel_->setTool(MaskTool::Ellipse);
    drag(*view_, {50.5, 16.5}, {39.5, 9.5});
    QCOMPARE(panel_->regions().size(), std::size_t(2));
    const MaskRegion ell = panel_->regions()[1];
    QCOMPARE(ell.shape, std::string("ellipse"));
    compareDrawn(ell.values, {45.0, 13.0, 5.5, 3.5, 0.0});
    int expected = 0;
    for (int y = 0; y < kSize; ++y) {
      for (int x = 0; x < kSize; ++x) {
        const double u = (x - 45.0) / 5.5, w = (y - 13.0) / 3.5;
        expected += u * u + w * w <= 1.0 ? 1 : 0;
      }
    }
    QCOMPARE(countOn(apertura::pipeline::rasterizeMask({ell}, kSize, kSize)), expected);

    // Polygon: three clicks, a double click on a fourth vertex closes it.
    panel_->setTool(MaskTool::Polygon);
    QTest::mouseClick(view_.get(), Qt::LeftButton, {}, at(*view_, 2.0, 50.0));
    QTest::mouseClick(view_.get(), Qt::LeftButton, {}, at(*view_, 20.0, 50.0));
    QTest::mouseClick(view_.get(), Qt::LeftButton, {}, at(*view_, 20.0, 60.0));
    QVERIFY(view_->sketching());
    QCOMPARE(panel_->regions().size(), std::size_t(2));  // not closed yet
    QTest::mouseDClick(view_.get(), Qt::LeftButton, {}, at(*view_, 2.0, 60.0));
    QVERIFY(!view_->sketching());
    QCOMPARE(panel_->regions().size(), std::size_t(3));
    const MaskRegion poly = panel_->regions()[2];
    QCOMPARE(poly.shape, std::string("polygon"));
    compareDrawn(poly.values, {2.0, 50.0, 20.0, 50.0, 20.0, 60.0, 2.0, 60.0});

    // A polygon started and cancelled with Esc adds nothing; a tiny drag adds nothing.
    QTest::mouseClick(view_.get(), Qt::LeftButton, {}, at(*view_, 40.0, 40.0));
    QVERIFY(view_->sketching());
    QTest::keyClick(view_.get(), Qt::Key_Escape);
    QVERIFY(!view_->sketching());
    panel_->setTool(MaskTool::Rectangle);
    drag(*view_, {40.0, 40.0}, {40.1, 40.1});
    QCOMPARE(panel_->regions().size(), std::size_t(3));

    // The panel lists each region with its shape, mode and coordinates.
    QCOMPARE(panel_->list()->count(), 3);
    QVERIFY2(panel_->list()->item(0)->text().contains("+ rectangle  x 9.5–30.5, y 19.5–40.5"),
             qPrintable(panel_->list()->item(0)->text()));
    QVERIFY(panel_->list()->item(1)->text().contains("ellipse  centre (45.0, 13.0)"));
    QVERIFY(panel_->list()->item(2)->text().contains("polygon  4 vertices"));
    // The view outlines every region.
    QCOMPARE(view_->maskRegions().size(), std::size_t(3));
  }

  void subtractWithShiftOrToggle() {
    panel_->setTool(MaskTool::Rectangle);
    drag(*view_, {9.5, 19.5}, {30.5, 40.5});
    // Shift subtracts a 5 x 5 hole.
    drag(*view_, {14.5, 24.5}, {19.5, 29.5}, Qt::ShiftModifier);
    QCOMPARE(panel_->regions().size(), std::size_t(2));
    QVERIFY(panel_->regions()[1].subtract);
    QCOMPARE(countOn(apertura::pipeline::rasterizeMask(panel_->regions(), kSize, kSize)), 441 - 25);
    // The toggle subtracts another 3 x 2 hole.
    panel_->setSubtractMode(true);
    QVERIFY(view_->maskSubtract());
    drag(*view_, {24.5, 34.5}, {27.5, 36.5});
    QVERIFY(panel_->regions()[2].subtract);
    QCOMPARE(countOn(apertura::pipeline::rasterizeMask(panel_->regions(), kSize, kSize)),
             441 - 25 - 6);
    QVERIFY(panel_->list()->item(2)->text().contains("[subtract]"));

    // Shot of the drawn regions (add: green, subtract: red dashed).
    const QString shot = artifact("test-masks-regions.png");
    if (!shot.isEmpty())
      QVERIFY(view_->grab().save(shot));

    // Delete the selected region, then clear.
    panel_->list()->setCurrentRow(1);
    for (QPushButton* b : panel_->findChildren<QPushButton*>()) {
      if (b->text() == "Delete")
        b->click();
    }
    QCOMPARE(panel_->regions().size(), std::size_t(2));
    QVERIFY(panel_->regions()[1].subtract);
    QCOMPARE(countOn(apertura::pipeline::rasterizeMask(panel_->regions(), kSize, kSize)), 441 - 6);
    panel_->clearRegions();
    QCOMPARE(panel_->list()->count(), 0);
    QVERIFY(view_->maskRegions().empty());
  }

  void importExportDs9() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    panel_->setRegions({{"rectangle", false, {9.5, 19.5, 30.5, 40.5}},
                        {"ellipse", true, {20.0, 30.0, 3.0, 2.0, 30.0}}});
    const QString path = dir.path() + "/mask.reg";
    QSignalSpy done(panel_.get(), &MaskPanel::ioFinished);
    panel_->exportRegions(path);
    QVERIFY(done.wait(10000));
    QCOMPARE(done.last().at(0).toBool(), true);
    const auto written = apertura::project::readDs9Regions(path.toStdString());
    QCOMPARE(written.size(), std::size_t(2));

    // Import adds to the list; a sky-coordinate file converts through the view's WCS.
    {
      std::ofstream out((dir.path() + "/sky.reg").toStdString());
      // RA 1.2 rad, Dec -0.5 rad is the reference pixel (32, 32); a 1" circle is ~4.85 px.
      out << std::setprecision(17) << "# Region file format: DS9 version 4.1\nfk5\ncircle("
          << 1.2 * 180.0 / M_PI << "," << -0.5 * 180.0 / M_PI << ",1\")\n";
    }
    panel_->clearRegions();
    panel_->importRegions(path);
    QVERIFY(done.wait(10000));
    QVERIFY(done.last().at(0).toBool());
    panel_->importRegions(dir.path() + "/sky.reg");
    QVERIFY(done.wait(10000));
    QVERIFY2(done.last().at(0).toBool(), qPrintable(done.last().at(1).toString()));
    QCOMPARE(panel_->regions().size(), std::size_t(3));
    const std::vector<double>& c = panel_->regions()[2].values;
    QVERIFY(std::abs(c[0] - 32.0) < 1e-6 && std::abs(c[1] - 32.0) < 1e-6);
    QVERIFY(std::abs(c[2] - M_PI / (180.0 * 3600.0) / 1e-6) < 1e-6);
    QVERIFY(panel_->regions()[1].subtract);

    // fk5 through the view's WCS: read back through it, the same regions.
    const std::vector<apertura::project::MaskRegion> before = panel_->regions();
    panel_->exportRegions(dir.path() + "/fk5.reg", MaskPanel::RegionCoordinates::Sky);
    QVERIFY(done.wait(10000));
    QVERIFY2(done.last().at(0).toBool(), qPrintable(done.last().at(1).toString()));
    {
      std::ifstream in((dir.path() + "/fk5.reg").toStdString());
      const std::string text((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
      QVERIFY2(text.find("\nfk5\n") != std::string::npos, text.c_str());
    }
    panel_->clearRegions();
    panel_->importRegions(dir.path() + "/fk5.reg");
    QVERIFY(done.wait(10000));
    QVERIFY2(done.last().at(0).toBool(), qPrintable(done.last().at(1).toString()));
    QCOMPARE(panel_->regions().size(), before.size());
    for (std::size_t i = 0; i < before.size(); ++i) {
      QCOMPARE(panel_->regions()[i].shape, before[i].shape);
      for (std::size_t k = 0; k < before[i].values.size(); ++k)
        QVERIFY(std::abs(panel_->regions()[i].values[k] - before[i].values[k]) < 1e-6);
    }

    // A bad file leaves the regions alone and shows the error with the line number.
    {
      std::ofstream out((dir.path() + "/bad.reg").toStdString());
      out << "image\nbox(1,2,3,4)\ntext(3,4) # text={hi}\n";
    }
    panel_->importRegions(dir.path() + "/bad.reg");
    QVERIFY(done.wait(10000));
    QVERIFY(!done.last().at(0).toBool());
    QVERIFY2(panel_->statusText().contains("bad.reg: line 3: unsupported region shape 'text'"),
             qPrintable(panel_->statusText()));
    QCOMPARE(panel_->regions().size(), std::size_t(3));
  }

  // Issue #35 item 10: Clear asks first; Cancel keeps every region.
  void clearAsksFirst() {
    panel_->setRegions({{"rectangle", false, {1, 2, 3, 4}}, {"ellipse", false, {9, 9, 2, 1, 0}}});
    QPushButton* clear = nullptr;
    for (QPushButton* b : panel_->findChildren<QPushButton*>())
      if (b->text() == "Clear")
        clear = b;
    QVERIFY(clear && clear->text() == "Clear" && clear->isEnabled());
    for (const bool yes : {false, true}) {
      clear->click();
      auto* box = panel_->findChild<QMessageBox*>("mask-clear-confirmation");
      QVERIFY(box && box->isVisible());
      QVERIFY2(box->text().contains("Remove all 2 region(s)"), qPrintable(box->text()));
      box->button(yes ? QMessageBox::Yes : QMessageBox::Cancel)->click();
      QTRY_VERIFY(panel_->findChild<QMessageBox*>("mask-clear-confirmation") == nullptr);
      QCOMPARE(panel_->regions().size(), yes ? std::size_t(0) : std::size_t(2));
    }
  }

  void useMaskAppliesToSettings() {
    apertura::project::ProjectSettings s;
    s.regularizers = {{"l1", 1e-3, false, {}}, {"tsv", 1e-4, false, {}}};
    panel_->setRegions({{"rectangle", false, {1, 2, 3, 4}}});
    panel_->applyTo(s);
    QVERIFY(s.mask.empty());  // "use mask" is off
    panel_->setUseMask(true);
    panel_->applyTo(s);
    QCOMPARE(s.mask.size(), std::size_t(1));
    QVERIFY(s.regularizers[0].use_mask && s.regularizers[1].use_mask);
  }

  void demoRunKeepsModelZeroOutsideTheMask() {
    cleanup();
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string ms = apertura::ensureDemoDataset(dir.path().toStdString());
    apertura::gui::MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy loaded(&w, &apertura::gui::MainWindow::datasetLoaded);
    w.openDataset(QString::fromStdString(ms));
    QVERIFY(loaded.wait(60000));

    apertura::project::ProjectSettings s;
    s.imaging.nx = s.imaging.ny = kSize;
    s.optimizer.max_iterations = 15;
    s.optimizer.snapshot_every = 5;
    s.regularizers = {{"l1", 1e-4, false, {}}};
    w.runSettings()->setSettings(s);
    // The mask: a box over the centre (where the disk is) minus a small hole.
    MaskPanel* mask = w.maskPanel();
    QVERIFY(mask);
    mask->setRegions({{"rectangle", false, {16.0, 16.0, 47.0, 47.0}},
                      {"rectangle", true, {30.0, 30.0, 33.0, 33.0}}});
    mask->setUseMask(true);
    // Every image view outlines the regions.
    for (const QString& name : w.imageTabs()->names())
      QCOMPARE(w.imageTabs()->panel(name)->view()->maskRegions().size(), std::size_t(2));

    QSignalSpy finished(&w, &apertura::gui::MainWindow::runFinished);
    QVERIFY(w.startRun());
    QVERIFY(finished.wait(180000));
    QCOMPARE(finished.first().at(0).toString(), QString("finished"));

    const auto model = w.imageTabs()->panel("model")->view()->image();
    QVERIFY(model);
    QCOMPARE(model->nx, kSize);
    const auto raster = apertura::pipeline::rasterizeMask(mask->regions(), kSize, kSize);
    QCOMPARE(countOn(raster), 32 * 32 - 16);
    int nonzero_outside = 0, nonzero_inside = 0;
    double flux_inside = 0.0;
    for (std::size_t k = 0; k < raster.size(); ++k) {
      if (raster[k] == 0.0) {
        nonzero_outside += model->pixels[k] != 0.0f ? 1 : 0;
      } else {
        nonzero_inside += model->pixels[k] != 0.0f ? 1 : 0;
        flux_inside += model->pixels[k];
      }
    }
    QCOMPARE(nonzero_outside, 0);
    QVERIFY2(nonzero_inside > 20, qPrintable(QString::number(nonzero_inside)));
    QVERIFY2(flux_inside > 0.0, qPrintable(QString::number(flux_inside)));

    const QString shot = artifact("test-masks-demo-run.png");
    if (!shot.isEmpty()) {
      w.centralTabs()->setCurrentIndex(3);  // the model
      QTest::qWait(200);
      QString error;
      QVERIFY2(apertura::gui::saveWindowScreenshot(w, shot, &error), qPrintable(error));
    }
  }

 private:
  std::unique_ptr<ImageView> view_;
  std::unique_ptr<MaskPanel> panel_;
};

QTEST_MAIN(TestMasks)
#include "test_masks.moc"
