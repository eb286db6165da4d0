// Spectral cubes in the GUI (issues #8/#13): the plane selector of an image panel (pixels, beam,
// colour clip, frequency readout of the chosen plane), planes linked across the image views,
// cube snapshot files of launcher runs, the spectral settings of the run panel, and the demo
// data set imaged as a 4-plane cube from the window: views with a plane selector, the cube
// outputs restored on reopening the project, and "Continue from last model" from the cube.
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "core/engine/run_observer.h"
#include "core/io/fits_cube_io.h"
#include "core/io/fits_planes.h"
#include "gui/controller/snapshot_loader.h"
#include "gui/panels/run_settings_panel.h"
#include "gui/panels/spectral_settings_box.h"
#include "gui/plots/convergence_panel.h"
#include "gui/view/image_panel.h"
#include "gui/view/image_view.h"
#include "gui/view/plane_selector.h"
#include "gui/view/volume_view.h"
#include "gui/window/image_tabs.h"
#include "gui/window/main_window.h"
#include "gui/window/project_actions.h"
#include "gui/window/surface_tab.h"
#include "gui/window/window_screenshot.h"
#include "tests/gui/gui_test_support.h"

using apertura::gui::ImageCube;
using apertura::gui::ImagePanel;
using apertura::gui::MainWindow;
using apertura::testing::artifact;

namespace {

constexpr int kNx = 16;
constexpr int kNy = 12;
const double kHz[] = {224.0e9, 224.5e9, 240.0e9};

// Plane k, pixel (x, y): (k + 1) * 10 + x + 0.01 y, so each plane has its own range.
float cubeValue(int k, int x, int y) {
  return float((k + 1) * 10 + x + 0.01 * y);
}

ImageCube threePlanes() {
  ImageCube c;
  c.nx = kNx;
  c.ny = kNy;
  c.planes = 3;
  auto pixels = std::make_shared<std::vector<float>>();
  for (int k = 0; k < 3; ++k)
    for (int y = 0; y < kNy; ++y)
      for (int x = 0; x < kNx; ++x)
        pixels->push_back(cubeValue(k, x, y));
  c.pixels = pixels;
  c.unit = "Jy/beam";
  c.wcs.ref_ra_rad = 1.0;
  c.wcs.ref_dec_rad = -0.4;
  c.wcs.ref_pixel_x = kNx / 2;
  c.wcs.ref_pixel_y = kNy / 2;
  c.wcs.cell_x_rad = -1e-6;
  c.wcs.cell_y_rad = 1e-6;
  c.frequencies_hz.assign(std::begin(kHz), std::end(kHz));
  for (int k = 0; k < 3; ++k)
    c.beams.push_back(apertura::gui::BeamShape{3e-6 / (k + 1), 2e-6 / (k + 1), 10.0 * k});
  return c;
}

std::shared_ptr<apertura::engine::ImageSnapshot> snapshot(const std::string& name, float offset) {
  auto s = std::make_shared<apertura::engine::ImageSnapshot>();
  s->name = name;
  s->nx = kNx;
  s->ny = kNy;
  s->planes = 3;
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < kNx * kNy; ++i)
      s->pixels.push_back(offset + float(k * 1000 + i));
  s->unit = name == "model" ? "Jy/pixel" : "Jy/beam";
  s->cell_x_rad = -1e-6;
  s->cell_y_rad = 1e-6;
  s->plane_frequencies_hz.assign(std::begin(kHz), std::end(kHz));
  for (int k = 0; k < 3; ++k)
    s->plane_beams.push_back({3e-6 / (k + 1), 2e-6, 0.0});
  s->beam_major_rad = 3e-6;
  s->beam_minor_rad = 2e-6;
  return s;
}

QLabel* memoryLabel(QWidget& panel) {
  for (QLabel* l : panel.findChildren<QLabel*>()) {
    if (l->text().startsWith("Memory estimate"))
      return l;
  }
  return nullptr;
}

}  // namespace

class TestCubeViews : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    apertura::testing::useThrowAwaySettings(dir_.path());
  }

  void planeSelectorShowsTheChosenPlane() {
    ImagePanel panel;
    panel.resize(500, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    apertura::gui::DisplaySettings d = panel.displaySettings();
    d.clip = apertura::gui::ClipMode::MinMax;
    panel.setDisplaySettings(d);
    QSignalSpy changed(&panel, &ImagePanel::planeChanged);

    panel.setImage(threePlanes());
    apertura::gui::PlaneSelector* selector = panel.planeSelector();
    QVERIFY(selector->isVisible());
    QCOMPARE(panel.planeCount(), 3);
    QCOMPARE(panel.plane(), 0);
    QCOMPARE(selector->slider()->maximum(), 2);
    QCOMPARE(selector->frequencyLabel()->text(), QString("224.000000 GHz"));
    auto image = panel.view()->image();
    QCOMPARE(image->at(3, 2), cubeValue(0, 3, 2));
    QCOMPARE(image->beam->major_rad, 3e-6);
    apertura::gui::ValueRange clip = panel.view()->renderer().clipRange();
    QCOMPARE(clip.min, double(cubeValue(0, 0, 0)));

    // The user moves the slider to the last plane: its pixels, beam, clip and frequency.
    selector->slider()->setValue(2);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.first().first().toInt(), 2);
    QCOMPARE(panel.plane(), 2);
    QCOMPARE(selector->spinBox()->value(), 2);
    QCOMPARE(selector->frequencyLabel()->text(), QString("240.000000 GHz"));
    image = panel.view()->image();
    QCOMPARE(image->at(3, 2), cubeValue(2, 3, 2));
    QCOMPARE(image->frequency_hz, 240.0e9);
    QCOMPARE(image->beam->major_rad, 1e-6);
    QCOMPARE(image->beam->position_angle_deg, 20.0);
    clip = panel.view()->renderer().clipRange();
    QCOMPARE(clip.min, double(cubeValue(2, 0, 0)));
    QCOMPARE(clip.max, double(cubeValue(2, kNx - 1, kNy - 1)));
    const QString readout = panel.view()->cursorText(QPointF(3, 2));
    QVERIFY2(readout.contains("(3, 2)") && readout.contains(QString::number(cubeValue(2, 3, 2))) &&
                 readout.endsWith("240.000000 GHz"),
             qPrintable(readout));

    // The spin box picks a plane too; a new image of the cube (next iteration) keeps it.
    selector->spinBox()->setValue(1);
    QCOMPARE(changed.count(), 2);
    QCOMPARE(panel.view()->image()->at(0, 0), cubeValue(1, 0, 0));
    panel.setImage(threePlanes());
    QCOMPARE(panel.plane(), 1);
    QCOMPARE(panel.view()->image()->at(0, 0), cubeValue(1, 0, 0));
    QCOMPARE(changed.count(), 2);  // programmatic changes are not the user's

    // A single-plane image hides the selector and has no frequency in its readout.
    apertura::gui::ImageData flat;
    flat.nx = flat.ny = 4;
    flat.pixels.assign(16, 1.0f);
    panel.setImage(flat);
    QVERIFY(!selector->isVisible());
    QCOMPARE(panel.planeCount(), 1);
    QVERIFY(!panel.view()->cursorText(QPointF(1, 1)).contains("GHz"));
  }

  void viewsShareThePlaneOfCubeSnapshots() {
    apertura::gui::ImageTabs tabs;
    QSignalSpy plane_changed(&tabs, &apertura::gui::ImageTabs::planeChanged);
    for (const char* name : {"dirty", "model", "restored"})
      tabs.showSnapshot(snapshot(name, name[0] == 'm' ? 0.5f : 0.0f));
    ImagePanel* dirty = tabs.panel("dirty");
    ImagePanel* model = tabs.panel("model");
    ImagePanel* restored = tabs.panel("restored");
    QCOMPARE(model->planeCount(), 3);
    QCOMPARE(model->view()->image()->at(1, 0), 0.5f + 1.0f);
    QVERIFY(!model->view()->image()->beam);  // a model has no beam
    QCOMPARE(restored->view()->image()->beam->major_rad, 3e-6);

    dirty->planeSelector()->slider()->setValue(2);
    QCOMPARE(plane_changed.count(), 1);
    QCOMPARE(tabs.plane(), 2);
    for (ImagePanel* p : {dirty, model, restored}) {
      QCOMPARE(p->plane(), 2);
      QCOMPARE(p->planeSelector()->slider()->value(), 2);
      QCOMPARE(p->view()->image()->frequency_hz, 240.0e9);
    }
    QCOMPARE(model->view()->image()->at(1, 0), 0.5f + 2001.0f);
    QCOMPARE(restored->view()->image()->beam->major_rad, 1e-6);
    // A panel that had no image yet shows the linked plane when its first cube arrives.
    tabs.showSnapshot(snapshot("residual", 7.0f));
    QCOMPARE(tabs.panel("residual")->plane(), 2);
    QCOMPARE(tabs.panel("residual")->view()->image()->at(0, 0), 7.0f + 2000.0f);
  }

  void cubeSnapshotFilesLoadAsCubes() {
    // What apertura-cli --snapshot-dir writes for a cube run: one FITS cube per snapshot.
    apertura::FitsCube c;
    c.header.nx = kNx;
    c.header.ny = kNy;
    c.header.cell_x_rad = -1e-6;
    c.header.cell_y_rad = 1e-6;
    c.header.ref_pixel_x = kNx / 2;
    c.header.ref_pixel_y = kNy / 2;
    c.header.bunit = "JY/BEAM";
    c.planes = 3;
    for (int k = 0; k < 3; ++k)
      for (int i = 0; i < kNx * kNy; ++i)
        c.pixels.push_back(k + i * 1e-3);
    c.frequencies_hz.assign(std::begin(kHz), std::end(kHz));  // uneven: listed in HISTORY
    for (int k = 0; k < 3; ++k)
      c.beams.push_back({3e-6 / (k + 1), 2e-6, 0.1});
    const QString path = dir_.path() + "/restored-000004.fits";
    apertura::writeFitsCube(path.toStdString(), c);
    const auto s = apertura::gui::readSnapshotFile(path, "restored", 4);
    QCOMPARE(s->planes, 3);
    QCOMPARE(s->pixels.size(), std::size_t(3 * kNx * kNy));
    QCOMPARE(s->pixels[2 * kNx * kNy + 5], float(2 + 5e-3));
    QCOMPARE(s->unit, std::string("Jy/beam"));
    QCOMPARE(s->plane_frequencies_hz.size(), std::size_t(3));
    QVERIFY(std::fabs(s->plane_frequencies_hz[1] - 224.5e9) < 1e-3);
    QCOMPARE(s->plane_beams.size(), std::size_t(3));
    QVERIFY(std::fabs(s->plane_beams[2].major_rad / 1e-6 - 1.0) < 1e-5);
  }

  void settingsPanelOffersCubes() {
    apertura::gui::RunSettingsPanel panel;
    auto* box = panel.findChild<apertura::gui::SpectralSettingsBox*>();
    QVERIFY(box);
    QCOMPARE(box->modeBox()->currentData().toString(), QString("mfs"));
    QVERIFY(!box->channelsPerPlaneBox()->isEnabled());

    apertura::DatasetSummary demo_like;
    demo_like.rows = 10000;
    demo_like.flag_cells_total = 10000 * 4 * 2;
    apertura::SpectralWindowInfo spw;
    spw.num_channels = 4;
    demo_like.spectral_windows = {spw, spw};
    panel.setDataset(demo_like);
    QLabel* memory = memoryLabel(panel);
    QVERIFY(memory);
    const QString mfs_memory = memory->toolTip();

    box->modeBox()->setCurrentIndex(box->modeBox()->findData("cube"));
    QVERIFY(box->channelsPerPlaneBox()->isEnabled());
    box->channelsPerPlaneBox()->setValue(2);
    QCOMPARE(box->planeCountText(), QString("4 planes"));
    QVERIFY2(memory->toolTip() != mfs_memory, qPrintable(memory->toolTip()));
    box->lambdaEdit("tv-spectral")->setText("1e-3");
    auto s = panel.settings(apertura::project::ProjectSettings{});
    QVERIFY2(s, qPrintable(panel.validationMessage()));
    QCOMPARE(s->imaging.spectral_mode, apertura::project::SpectralMode::Cube);
    QCOMPARE(s->imaging.channels_per_plane, 2);
    int spectral_terms = 0;
    for (const auto& r : s->regularizers) {
      if (r.type == "tv-spectral") {
        ++spectral_terms;
        QCOMPARE(r.lambda, 1e-3);
      }
      QVERIFY(r.type != "tsv-spectral");  // λ 0: off
    }
    QCOMPARE(spectral_terms, 1);

    // A λ that is not a number is refused with the field named.
    box->lambdaEdit("tsv-spectral")->setText("abc");
    QVERIFY(!panel.settings(apertura::project::ProjectSettings{}));
    QVERIFY2(panel.validationMessage().contains("tsv-spectral"),
             qPrintable(panel.validationMessage()));

    // A project's across-plane term keeps its mask flag and parameters through the panel.
    apertura::project::ProjectSettings p;
    p.imaging.spectral_mode = apertura::project::SpectralMode::Cube;
    p.imaging.channels_per_plane = 4;
    p.regularizers = {{"tv-spectral", 2e-3, true, {{"epsilon", 1e-6}}}};
    panel.setSettings(p);
    QCOMPARE(box->lambdaEdit("tv-spectral")->text(), QString("0.002"));
    QCOMPARE(box->lambdaEdit("tsv-spectral")->text(), QString("0"));
    QCOMPARE(box->planeCountText(), QString("2 planes"));
    s = panel.settings(p);
    QVERIFY2(s, qPrintable(panel.validationMessage()));
    QCOMPARE(s->imaging.channels_per_plane, 4);
    bool kept = false;
    for (const auto& r : s->regularizers) {
      if (r.type == "tv-spectral")
        kept = r.use_mask && r.parameters.at("epsilon") == 1e-6 && r.lambda == 2e-3;
    }
    QVERIFY(kept);
  }

  void demoCubeRunReopenAndContinue() {
    QTemporaryDir dir;
    auto w = apertura::testing::demoWindowForLbfgsRun(6, dir);
    QVERIFY(w);
    auto* box = w->runSettings()->findChild<apertura::gui::SpectralSettingsBox*>();
    QVERIFY(box);
    box->modeBox()->setCurrentIndex(box->modeBox()->findData("cube"));
    box->channelsPerPlaneBox()->setValue(2);  // 2 windows x 4 channels: 4 planes
    QCOMPARE(box->planeCountText(), QString("4 planes"));
    // Saved first, so the run writes its cube outputs beside the project.
    const QString project = dir.path() + "/cube.apertura";
    QVERIFY(w->projectActions()->saveAs(project));
    apertura::testing::runToFinish(*w);
    if (QTest::currentTestFailed())
      return;

    apertura::gui::ImageTabs* tabs = w->imageTabs();
    for (const QString& name : tabs->names())
      QCOMPARE(tabs->panel(name)->planeCount(), 4);
    ImagePanel* restored = tabs->panel("restored");
    ImagePanel* model = tabs->panel("model");
    QVERIFY(!restored->planeSelector()->isHidden());
    const auto plane0 = restored->view()->image();
    const auto model0 = model->view()->image();
    const QString ghz0 = restored->planeSelector()->frequencyLabel()->text();
    QVERIFY2(ghz0.startsWith("224."), qPrintable(ghz0));
    const QPointF centre((plane0->nx - 1) / 2.0, (plane0->ny - 1) / 2.0);

    restored->planeSelector()->slider()->setValue(3);
    const auto plane3 = restored->view()->image();
    QVERIFY(plane3 != plane0);
    QVERIFY(plane3->pixels != plane0->pixels);
    const QString ghz3 = restored->planeSelector()->frequencyLabel()->text();
    QVERIFY2(ghz3.startsWith("240."), qPrintable(ghz3));
    QVERIFY2(restored->view()->cursorText(centre).endsWith(ghz3),
             qPrintable(restored->view()->cursorText(centre)));
    // Higher frequency, narrower beam; the linked model view shows plane 3 as well.
    QVERIFY(plane3->beam && plane0->beam && plane3->beam->major_rad < plane0->beam->major_rad);
    QCOMPARE(model->plane(), 3);
    QVERIFY(model->view()->image()->pixels != model0->pixels);
    const QString shot = artifact("test-cube-run-plane3.png");
    if (!shot.isEmpty()) {
      QString error;
      QVERIFY2(apertura::gui::saveWindowScreenshot(*w, shot, &error), qPrintable(error));
    }

    // The 3D tab stacks the restored cube's planes as a volume, the lowest frequency at the bottom.
    apertura::gui::SurfaceTab* surface = w->surfaceTab();
    w->centralTabs()->setCurrentWidget(surface);
    surface->setCurrentName("restored");
    surface->setMode(apertura::gui::SurfaceTab::Mode::SpectralCube);
    surface->refreshNow();
    const apertura::gui::IterationStack& planes = surface->cubeStack();
    QCOMPARE(planes.sliceCount(), 4);
    QCOMPARE(surface->volumeView()->slices(), 4);
    QVERIFY2(surface->volumeView()->caption().contains("planes 1 (bottom, 224."),
             qPrintable(surface->volumeView()->caption()));
    // The top slice is plane 4 block-averaged: the same total flux.
    double top_sum = 0.0, plane_sum = 0.0;
    for (float v : planes.slices().back()->pixels)
      top_sum += v;
    for (float v : restored->view()->image()->pixels)  // the view shows plane 4
      plane_sum += v;
    const double f2 = double(planes.factor()) * planes.factor();
    QVERIFY2(std::fabs(top_sum * f2 - plane_sum) <= 1e-4 * std::fabs(plane_sum) + 1e-6,
             qPrintable(QString("%1 vs %2").arg(top_sum * f2).arg(plane_sum)));
    const QImage volume_frame = surface->volumeView()->grabRendered();
    if (!volume_frame.isNull() && !artifact("test-cube-volume.png").isEmpty())
      w->grab().save(artifact("test-cube-volume.png"));
    // Back to the iteration stack: the volume shows the run's model snapshots again.
    surface->setMode(apertura::gui::SurfaceTab::Mode::IterationStack);
    surface->refreshNow();
    QCOMPARE(surface->volumeView()->slices(), surface->stack().sliceCount());

    // The outputs are cubes.
    const QString restored_file = dir.path() + "/cube-restored.fits";
    QCOMPARE(apertura::fitsImagePlanes(restored_file.toStdString()), 4);

    // Continue from the cube's model: the run starts at the first run's fit.
    const auto metrics = w->convergence()->metrics();
    const double first_chi2 = metrics.first().chi2_per_dof;
    const double last_chi2 = metrics.last().chi2_per_dof;
    QSignalSpy finished(w.get(), &MainWindow::runFinished);
    QVERIFY(w->continueRun());
    QVERIFY(finished.wait(240000));
    QCOMPARE(finished.first().at(0).toString(), QString("finished"));
    const double resumed = w->convergence()->metrics().first().chi2_per_dof;
    qInfo("cube chi2/dof: first run %.3f -> %.3f, continued run starts at %.3f", first_chi2,
          last_chi2, resumed);
    QVERIFY(resumed <= last_chi2 * 1.05);
    QVERIFY(resumed < 0.5 * first_chi2);
    QCOMPARE(restored->planeCount(), 4);
    QCOMPARE(restored->plane(), 3);  // the chosen plane stays through the next run

    // Reopen the project in a new window: the cube outputs load with their planes.
    w.reset();
    MainWindow again;
    again.resize(1400, 900);
    again.show();
    QVERIFY(QTest::qWaitForWindowExposed(&again));
    QSignalSpy restored_results(again.projectActions(),
                                &apertura::gui::ProjectActions::resultsRestored);
    QVERIFY(again.projectActions()->openProject(project));
    QTRY_VERIFY_WITH_TIMEOUT(!restored_results.isEmpty(), 60000);
    QCOMPARE(restored_results.first().first().toInt(), 5);
    ImagePanel* back = again.imageTabs()->panel("restored");
    QCOMPARE(back->planeCount(), 4);
    QCOMPARE(again.imageTabs()->panel("psf")->planeCount(), 4);
    back->planeSelector()->slider()->setValue(3);
    // The exact plane frequencies (two windows: not on the FITS axis), as the run showed them.
    QCOMPARE(back->planeSelector()->frequencyLabel()->text(), ghz3);
    QVERIFY(back->view()->image()->beam.has_value());
    back->planeSelector()->slider()->setValue(0);
    QCOMPARE(back->planeSelector()->frequencyLabel()->text(), ghz0);
  }

 private:
  QTemporaryDir dir_;
};

int main(int argc, char** argv) {
  return apertura::testing::runWindowTest<TestCubeViews>(argc, argv, "test_cube_views");
}
#include "test_cube_views.moc"
