// The project lifecycle in the real main window: save / New / reopen restores every setting, the
// view state and the last results on disk; the unsaved-changes prompt fires exactly when the
// project was modified. Recent projects, preferences and bad project files:
// test_project_recent_prefs.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include "core/io/fits_image_io.h"
#include "core/project/project_file.h"
#include "gui/controller/project_document.h"
#include "gui/panels/mask_panel.h"
#include "gui/panels/run_settings_panel.h"
#include "gui/view/image_panel.h"
#include "gui/view/image_toolbar.h"
#include "gui/view/image_view.h"
#include "gui/window/image_tabs.h"
#include "gui/window/main_window.h"
#include "gui/window/project_actions.h"
#include "gui/window/window_screenshot.h"
#include "tests/gui/gui_test_support.h"
#include "tests/support/test_ms_builder.h"

using apertura::gui::MainWindow;
using apertura::gui::ProjectActions;
using apertura::testing::artifact;
using apertura::testing::comboWith;
using Answer = apertura::gui::ProjectActions::Answer;
namespace project = apertura::project;

namespace {

QLineEdit* lambdaEdit(MainWindow& w, int row) {  // 0 L1, 1 TSV, 2 TV, 3 entropy
  QList<QLineEdit*> edits;
  for (QLineEdit* e : w.runSettings()->findChildren<QLineEdit*>()) {
    // Not a spin box's own editor, the angle fields, nor a term's planes field beside its λ.
    if (!qobject_cast<QAbstractSpinBox*>(e->parentWidget()) && e->objectName() != "cell" &&
        e->objectName() != "taper" && !e->objectName().startsWith("planes-"))
      edits << e;
  }
  return row < edits.size() ? edits[row] : nullptr;
}

QSpinBox* iterationsBox(MainWindow& w) {
  for (QSpinBox* s : w.runSettings()->findChildren<QSpinBox*>()) {
    if (s->maximum() == 100000)
      return s;
  }
  return nullptr;
}

double lambdaOf(const project::ProjectSettings& s, const std::string& type) {
  for (const auto& r : s.regularizers) {
    if (r.type == type)
      return r.lambda.value_or(-1.0);  // -1: auto
  }
  return 0.0;
}

QJsonObject readJson(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly))
    return {};
  return QJsonDocument::fromJson(f.readAll()).object();
}

// A 64 x 64 image with pixel (x, y) = scale * (x + 100 y), written as a run writes results.
void writeResultImage(const QString& path, double scale, const std::string& bunit) {
  apertura::FitsImage image;
  image.nx = image.ny = 64;
  image.pixels.resize(64 * 64);
  for (int y = 0; y < 64; ++y) {
    for (int x = 0; x < 64; ++x)
      image.pixels[y * 64 + x] = scale * (x + 100 * y);
  }
  image.cell_x_rad = -1e-6;
  image.cell_y_rad = 1e-6;
  image.ref_pixel_x = image.ref_pixel_y = 32;
  image.ref_ra_rad = 1.0;
  image.ref_dec_rad = -0.4;
  image.bunit = bunit;
  if (bunit == "JY/BEAM")
    image.beam = apertura::ImageBeam{4e-6, 3e-6, 0.5};
  apertura::writeFitsImage(path.toStdString(), image);
}

}  // namespace

class TestProjectWorkflow : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    apertura::testing::useThrowAwaySettings(dir_.path());
    ms_ = QString::fromStdString(
        apertura::testing::writeTestMs((dir_.path() + "/known.ms").toStdString()));
  }

  void init() { apertura::testing::resetRecentProjectsAndPreferences(); }

  void saveNewReopenRestoresSettingsViewsAndResults() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    ProjectActions* actions = w.projectActions();
    // At start-up the project is the default one, as after New (the panel's own widgets do not
    // decide): the demo run with default settings chooses λ automatically.
    const auto startup = actions->currentProject();
    QVERIFY(startup);
    QCOMPARE(lambdaOf(*startup, "l1"), -1.0);
    QCOMPARE(startup->regularizers.size(), project::defaultProject().regularizers.size());
    QCOMPARE(startup->optimizer.max_iterations, project::defaultProject().optimizer.max_iterations);
    int prompts = 0;
    actions->setUnsavedPrompt([&](const QString&) {
      ++prompts;
      return Answer::Discard;
    });
    QSignalSpy loaded(&w, &MainWindow::datasetLoaded);
    w.openDemo();
    QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 120000);
    const QString demo = loaded.takeFirst().first().toString();
    // The data set is part of the project: choosing one is a change to save.
    QVERIFY(actions->document()->isModified());
    QVERIFY2(w.windowTitle().startsWith("Untitled* — demo.ms"), qPrintable(w.windowTitle()));

    // What a user does: weighting, a regularizer's lambda, the dirty view's colormap and zoom.
    comboWith(w, "uniform")->setCurrentText("uniform");
    QCOMPARE(lambdaEdit(w, 0)->text(), QString("auto"));
    lambdaEdit(w, 0)->setText("2.5e-4");
    QCOMPARE(comboWith(w, "normalised")->currentText(), QString("normalised"));
    comboWith(w, "normalised")->setCurrentText("none");
    apertura::gui::ImagePanel* dirty = w.imageTabs()->panel("dirty");
    dirty->toolbar()->colormapBox()->setCurrentText("viridis");
    QCOMPARE(dirty->displaySettings().colormap, apertura::gui::ColormapKind::Viridis);
    apertura::gui::ImageData picture;
    picture.nx = picture.ny = 64;
    picture.pixels.assign(64 * 64, 1.0f);
    dirty->setImage(picture);
    dirty->view()->setView(QPointF(20.5, 30.25), 3.0);
    QVERIFY(actions->document()->isModified());
    QVERIFY2(w.windowTitle().startsWith("Untitled* — "), qPrintable(w.windowTitle()));

    const QString file = dir_.path() + "/p.apertura";
    QVERIFY(actions->saveAs(file));
    QVERIFY(!actions->document()->isModified());
    QVERIFY2(w.windowTitle().startsWith("p.apertura — demo.ms"), qPrintable(w.windowTitle()));

    // The file says what the window showed.
    const QJsonObject json = readJson(file);
    QCOMPARE(json["weighting"].toObject()["scheme"].toString(), QString("uniform"));
    QCOMPARE(json["data"].toObject()["path"].toString(), demo);
    QCOMPARE(json["schema_version"].toInt(), 2);
    QCOMPARE(json["regularization"].toObject()["scaling"].toString(), QString("none"));
    bool found_l1 = false;
    for (const QJsonValue r : json["regularizers"].toArray()) {
      if (r.toObject()["type"].toString() == "l1") {
        found_l1 = true;
        QCOMPARE(r.toObject()["lambda"].toDouble(), 2.5e-4);
      }
    }
    QVERIFY(found_l1);
    const QJsonObject views = json["views"].toObject();
    const QJsonObject dirty_json = views["dirty"].toObject();
    QCOMPARE(dirty_json["colormap"].toString(), QString("viridis"));
    QCOMPARE(dirty_json["zoom"].toDouble(), 3.0);
    QCOMPARE(dirty_json["center_x"].toDouble(), 20.5);
    QCOMPARE(dirty_json["center_y"].toDouble(), 30.25);
    QCOMPARE(views["residual"].toObject()["colormap"].toString(), QString("coolwarm"));
    QCOMPARE(views["psf"].toObject()["zoom"].toString(), QString("auto"));  // had no image

    // The last results of the project, where a run of it writes them (beside it, named after it).
    writeResultImage(dir_.path() + "/p-dirty.fits", 1e-3, "JY/BEAM");
    writeResultImage(dir_.path() + "/p-model.fits", 2e-5, "JY/PIXEL");

    // New project: prompt (auto-answered Discard) because of an unsaved change; defaults again.
    comboWith(w, "fista")->setCurrentText("fista");
    QVERIFY(actions->newProject());
    QCOMPARE(prompts, 1);
    auto fresh = actions->currentProject();
    QVERIFY(fresh);
    QCOMPARE(fresh->weighting.scheme, apertura::imaging::WeightingScheme::Briggs);
    QCOMPARE(lambdaOf(*fresh, "l1"), -1.0);  // auto (cross-validated), the default
    QCOMPARE(fresh->imaging.nx, project::defaultProject().imaging.nx);
    QCOMPARE(fresh->optimizer.method, apertura::project::OptimizerMethod::Lbfgs);
    QCOMPARE(dirty->displaySettings().colormap, apertura::gui::ColormapKind::Inferno);
    QVERIFY(!dirty->view()->image() || dirty->view()->image()->empty());
    QVERIFY2(w.windowTitle().startsWith("Untitled — "), qPrintable(w.windowTitle()));

    // Reopen: no prompt (nothing changed since New), everything back.
    QSignalSpy opened(actions, &ProjectActions::projectOpened);
    QSignalSpy restored(actions, &ProjectActions::resultsRestored);
    QVERIFY(actions->openProject(file));
    QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty(), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!restored.isEmpty(), 20000);
    QCOMPARE(restored.first().first().toInt(), 2);
    QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 120000);  // the project's data set
    QCOMPARE(prompts, 1);
    const auto back = actions->currentProject();
    QVERIFY(back);
    QCOMPARE(back->weighting.scheme, apertura::imaging::WeightingScheme::Uniform);
    QCOMPARE(lambdaOf(*back, "l1"), 2.5e-4);
    QCOMPARE(back->data.path, demo.toStdString());
    QCOMPARE(comboWith(w, "uniform")->currentText(), QString("uniform"));
    QCOMPARE(lambdaEdit(w, 0)->text(), QString("0.00025"));
    QCOMPARE(dirty->displaySettings().colormap, apertura::gui::ColormapKind::Viridis);
    QCOMPARE(dirty->toolbar()->colormapBox()->currentText(), QString("viridis"));
    QCOMPARE(w.imageTabs()->panel("residual")->displaySettings().colormap,
             apertura::gui::ColormapKind::CoolWarm);
    // The restored results, with the saved zoom and centre.
    const auto image = dirty->view()->image();
    QVERIFY(image && image->nx == 64 && image->ny == 64);
    QCOMPARE(image->unit, std::string("Jy/beam"));
    QVERIFY(image->beam.has_value());
    QCOMPARE(image->at(7, 5), float(1e-3 * (7 + 500)));
    // Labelled as read from disk until a run replaces it (issue #35: images of an earlier run).
    QCOMPARE(dirty->caption(), QString("Saved results of this project (read from disk)"));
    QCOMPARE(dirty->view()->zoom(), 3.0);
    QCOMPARE(dirty->view()->center(), QPointF(20.5, 30.25));
    const auto model = w.imageTabs()->panel("model")->view()->image();
    QVERIFY(model && model->nx == 64);
    QCOMPARE(model->unit, std::string("Jy/pixel"));
    QVERIFY(!w.imageTabs()->panel("residual")->view()->image() ||
            w.imageTabs()->panel("residual")->view()->image()->empty());
    QVERIFY(!actions->document()->isModified());
    QVERIFY2(w.windowTitle().startsWith("p.apertura — demo.ms"), qPrintable(w.windowTitle()));

    // A run of the saved project writes its results where reopening looks for them.
    const auto run = actions->settingsForRun(demo);
    QVERIFY(run);
    QCOMPARE(QString::fromStdString(run->output.prefix), dir_.path() + "/p");

    w.centralTabs()->setCurrentWidget(dirty);
    QTest::qWait(300);
    const QString shot = artifact("project-reopened.png");
    if (!shot.isEmpty()) {
      QString error;
      QVERIFY2(apertura::gui::saveWindowScreenshot(w, shot, &error), qPrintable(error));
    }
  }

  void everyFieldSurvivesGuiOpenAndSave() {
    // A project with every field away from its default, views and mask included.
    project::ProjectSettings s;
    s.data = {ms_.toStdString(), 1, {0, 1}, 1, 3, "XX", "DATA", 5000, 2.5};
    s.weighting = {apertura::imaging::WeightingScheme::Briggs, -1.25, 0.75, 2.0};
    s.imaging = {1024,
                 768,
                 0.05,
                 apertura::imaging::KernelType::KaiserBessel,
                 1e-6,
                 1.5,
                 true,
                 apertura::imaging::Backend::Cpu,
                 1,
                 2,
                 apertura::project::Precision::Double};
    s.regularizers = {{"entropy", 0.01, true, {{"prior", 1e-5}}},
                      {"huber", 0.3, false, {{"delta", 0.2}}},
                      {"tv", 0.002, true, {{"epsilon", 1e-8}}}};
    s.optimizer.method = apertura::project::OptimizerMethod::CgHz;
    s.optimizer.line_search = apertura::rml::LineSearchKind::Brent;
    s.optimizer.max_iterations = 250;
    s.optimizer.history = 7;
    s.optimizer.relative_tolerance = 1e-9;
    s.optimizer.gradient_tolerance = 1e-12;
    s.optimizer.time_limit_s = 120.0;
    s.optimizer.positivity = apertura::project::Positivity::Softplus;
    s.optimizer.snapshot_every = 3;
    s.mask = {{"rectangle", false, {1, 2, 30, 40}}, {"ellipse", true, {10, 10, 5, 3, 30}}};
    s.output.prefix = "out/run1";
    s.output.psf = false;
    s.output.metrics_csv = false;
    s.output.write_model_column = true;
    s.output.model_column = "MODEL_APERTURA";
    s.views["dirty"].colormap = "magma";
    s.views["dirty"].scaling = "asinh";
    s.views["dirty"].clip = "user";
    s.views["dirty"].user_min = -0.5;
    s.views["dirty"].user_max = 2.0;
    s.views["dirty"].zoom = 2.0;
    s.views["dirty"].center_x = 10.0;
    s.views["dirty"].center_y = 12.0;
    s.views["truth"].colormap = "gray";  // a view this window does not have
    for (const char* name : {"psf", "model", "restored"})
      s.views[name] = project::ViewSettings{};
    s.views["residual"].colormap = "coolwarm";
    const std::string first = (dir_.path() + "/every.apertura").toStdString();
    project::saveProject(s, first);

    MainWindow w;
    QSignalSpy loaded(&w, &MainWindow::datasetLoaded);
    QSignalSpy opened(w.projectActions(), &ProjectActions::projectOpened);
    QVERIFY(w.projectActions()->openProject(QString::fromStdString(first)));
    QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty(), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 20000);
    QVERIFY(!w.projectActions()->document()->isModified());
    const std::string second = (dir_.path() + "/every-again.apertura").toStdString();
    QVERIFY(w.projectActions()->saveAs(QString::fromStdString(second)));
    const std::string base = dir_.path().toStdString();
    QCOMPARE(QString::fromStdString(project::projectToJson(project::loadProject(second), base)),
             QString::fromStdString(project::projectToJson(project::loadProject(first), base)));

    // Editing one panel field changes that field only; terms the panel cannot show survive.
    iterationsBox(w)->setValue(77);
    lambdaEdit(w, 2)->setText("0.004");  // TV
    QVERIFY(w.projectActions()->document()->isModified());
    QVERIFY(w.projectActions()->save());
    const project::ProjectSettings edited = project::loadProject(second);
    QCOMPARE(edited.optimizer.max_iterations, 77);
    QCOMPARE(edited.optimizer.method, apertura::project::OptimizerMethod::CgHz);
    QCOMPARE(edited.imaging.ny, 768);
    QCOMPARE(edited.regularizers.size(), std::size_t(3));
    QCOMPARE(edited.regularizers[1].type, std::string("huber"));
    QCOMPARE(edited.regularizers[1].parameters.at("delta"), 0.2);
    QCOMPARE(edited.regularizers[2].lambda, 0.004);
    QCOMPARE(edited.regularizers[2].parameters.at("epsilon"), 1e-8);
    QVERIFY(edited.regularizers[2].use_mask);
    QCOMPARE(edited.mask.size(), std::size_t(2));
    QCOMPARE(edited.views.at("truth").colormap, std::string("gray"));
    QCOMPARE(*edited.views.at("dirty").zoom, 2.0);
  }

  // "Use mask in the next run" says whether the drawn regions confine the model
  // (optimizer.mask_support): unchecked, they are saved but neither the model nor any term is
  // restricted to them (before, regions always confined the model whatever the box said).
  void maskBoxDecidesWhetherRegionsConfineTheModel() {
    MainWindow w;
    apertura::gui::MaskPanel* mask = w.maskPanel();
    mask->setRegions({{"rectangle", false, {1, 2, 30, 40}}});
    QVERIFY(!mask->useMask());
    auto s = w.projectActions()->currentProject();
    QVERIFY(s);
    QCOMPARE(s->mask.size(), std::size_t(1));  // kept
    QVERIFY(!s->optimizer.mask_support);       // but not the model's support
    for (const auto& r : s->regularizers)
      QVERIFY(!r.use_mask);
    mask->setUseMask(true);
    s = w.projectActions()->currentProject();
    QVERIFY(s && s->optimizer.mask_support);
    for (const auto& r : s->regularizers)
      QVERIFY(r.use_mask);

    // A project shows the box as its regions act: checked when they confine the model (also
    // with no use_mask term), unchecked when mask_support is off.
    w.projectActions()->setUnsavedPrompt([](const QString&) { return Answer::Discard; });
    project::ProjectSettings p = project::defaultProject();
    p.mask = {{"ellipse", false, {10, 10, 5, 3, 0}}};
    const QString file = dir_.path() + "/mask-support.apertura";
    for (const bool support : {true, false}) {
      p.optimizer.mask_support = support;
      project::saveProject(p, file.toStdString());
      QSignalSpy opened(w.projectActions(), &ProjectActions::projectOpened);
      QVERIFY(w.projectActions()->openProject(file));
      QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty(), 20000);
      QCOMPARE(mask->useMask(), support);
      s = w.projectActions()->currentProject();
      QVERIFY(s);
      QCOMPARE(s->optimizer.mask_support, support);  // reopened as saved
    }
  }

  void unsavedPromptFiresOnlyWhenModified() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    ProjectActions* actions = w.projectActions();
    int prompts = 0;
    Answer answer = Answer::Cancel;
    actions->setUnsavedPrompt([&](const QString&) {
      ++prompts;
      return answer;
    });
    // Clean: New and close go ahead without asking.
    QVERIFY(actions->newProject());
    QCOMPARE(prompts, 0);

    QComboBox* method = comboWith(w, "fista");
    method->setCurrentText("fista");
    QVERIFY(actions->document()->isModified());
    QVERIFY(!actions->newProject());  // Cancel
    QCOMPARE(prompts, 1);
    QCOMPARE(method->currentText(), QString("fista"));
    QVERIFY(!w.close());  // Cancel keeps the window
    QCOMPARE(prompts, 2);
    QVERIFY(w.isVisible());

    // Changing it back is no modification: no prompt.
    method->setCurrentText("lbfgs");
    QVERIFY(!actions->document()->isModified());
    QVERIFY(actions->newProject());
    QCOMPARE(prompts, 2);

    // Save: writes the project, then goes on.
    const QString file = dir_.path() + "/prompt.apertura";
    QVERIFY(actions->saveAs(file));
    method->setCurrentText("sdmm");
    answer = Answer::Save;
    QVERIFY(actions->newProject());
    QCOMPARE(prompts, 3);
    QCOMPARE(readJson(file)["optimizer"].toObject()["method"].toString(), QString("sdmm"));

    // Discard on close: the window closes.
    method->setCurrentText("cg-pr");
    answer = Answer::Discard;
    QVERIFY(w.close());
    QCOMPARE(prompts, 4);
    QVERIFY(!w.isVisible());
  }

  // A project belongs to its data set: opening another one offers to save the project and starts
  // a new, untitled one (defaults, no mask, no images), so that the new data's runs cannot write
  // over the old project's outputs. Cancel changes nothing; the project's own data set, reopened,
  // keeps the project.
  void openingAnotherDataSetStartsANewProject() {
    QTemporaryDir dir;
    auto w = apertura::testing::demoWindowForLbfgsRun(3, dir);
    QVERIFY(w);
    ProjectActions* actions = w->projectActions();
    int prompts = 0;
    Answer answer = Answer::Cancel;
    actions->setUnsavedPrompt([&](const QString&) {
      ++prompts;
      return answer;
    });
    const QString file = dir_.path() + "/alma.apertura";
    QVERIFY(actions->saveAs(file));
    writeResultImage(dir_.path() + "/alma-restored.fits", 1e-3, "JY/BEAM");
    QFile restored(dir_.path() + "/alma-restored.fits");
    QVERIFY(restored.open(QIODevice::ReadOnly));
    const QByteArray before = restored.readAll();
    restored.close();
    auto project = actions->currentProject();
    QVERIFY(project);
    QCOMPARE(QString::fromStdString(actions->settingsForRun(ms_)->output.prefix),
             dir_.path() + "/alma");
    lambdaEdit(*w, 0)->setText("0.5");
    w->maskPanel()->setRegions({{"rectangle", false, {1, 1, 20, 20}}});
    apertura::gui::ImagePanel* dirty = w->imageTabs()->panel("dirty");
    apertura::gui::ImageData shown;
    shown.nx = shown.ny = 2;
    shown.pixels = {1, 2, 3, 4};
    dirty->setImage(shown);
    QVERIFY(actions->document()->isModified());

    // Cancel: nothing happens, not even the load.
    QSignalSpy loaded(w.get(), &MainWindow::datasetLoaded);
    w->openDataset(ms_);
    QCOMPARE(prompts, 1);
    QVERIFY(!loaded.wait(300));
    QCOMPARE(actions->document()->path(), file);
    QCOMPARE(lambdaEdit(*w, 0)->text(), QString("0.5"));

    // Discard: a new project for the new data set.
    answer = Answer::Discard;
    w->openDataset(ms_);
    QCOMPARE(prompts, 2);
    QVERIFY(loaded.wait(60000));
    QVERIFY(actions->document()->path().isEmpty());
    QCOMPARE(lambdaEdit(*w, 0)->text(), QString("auto"));
    QVERIFY(w->maskPanel()->regions().empty());
    QVERIFY(!dirty->view()->image() || dirty->view()->image()->empty());
    project = actions->currentProject();
    QVERIFY(project);
    QCOMPARE(QFileInfo(QString::fromStdString(project->data.path)).canonicalFilePath(),
             QFileInfo(ms_).canonicalFilePath());
    // An untitled project writes no files: the old project's outputs stay as they were.
    QVERIFY(actions->settingsForRun(ms_)->output.prefix.empty());
    QVERIFY(restored.open(QIODevice::ReadOnly));
    QCOMPARE(restored.readAll(), before);
    restored.close();

    // Its own data set again: the project stays (no prompt, nothing reset).
    lambdaEdit(*w, 0)->setText("2");
    w->openDataset(ms_);
    QVERIFY(loaded.wait(60000));
    QCOMPARE(prompts, 2);
    QCOMPARE(lambdaEdit(*w, 0)->text(), QString("2"));
  }

 private:
  QTemporaryDir dir_;
  QString ms_;
};

int main(int argc, char** argv) {
  // The settings set-up keeps the event loop running when the close tests close the window.
  return apertura::testing::runWindowTest<TestProjectWorkflow>(argc, argv, "test_project_workflow");
}

#include "test_project_workflow.moc"
