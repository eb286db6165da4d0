// Around the project in the real main window: the recent list keeps its order and drops missing
// files (and File > Open recent shows it); a bad project file is reported, naming the file and the
// key, and the window stays usable; the preferences apply to new projects.
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QMenu>
#include <QMessageBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include "gui/controller/app_preferences.h"
#include "gui/controller/project_document.h"
#include "gui/controller/recent_projects.h"
#include "gui/controller/window_layout.h"
#include "gui/dialogs/preferences_dialog.h"
#include "gui/window/main_window.h"
#include "gui/window/project_actions.h"
#include "tests/gui/gui_test_support.h"

using apertura::gui::MainWindow;
using apertura::gui::ProjectActions;
using apertura::testing::artifact;
using apertura::testing::comboWith;
using Answer = apertura::gui::ProjectActions::Answer;

namespace {

void writeText(const QString& path, const QByteArray& text) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
  f.write(text);
}

QMessageBox* errorBox(MainWindow& w) {
  return w.findChild<QMessageBox*>(QStringLiteral("project-error"));
}

}  // namespace

class TestProjectRecentPrefs : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    apertura::testing::useThrowAwaySettings(dir_.path());
  }

  void init() { apertura::testing::resetRecentProjectsAndPreferences(); }

  void recentListKeepsOrderAndDropsMissingFiles() {
    using apertura::gui::RecentProjects;
    QStringList files;
    for (const char* name : {"a", "b", "c"}) {
      files << dir_.path() + "/recent-" + name + ".apertura";
      writeText(files.last(), "{}");
    }
    for (const QString& f : files)
      RecentProjects::add(f, 8);
    QCOMPARE(RecentProjects::list(), (QStringList{files[2], files[1], files[0]}));
    RecentProjects::add(files[0], 8);
    QCOMPARE(RecentProjects::list(), (QStringList{files[0], files[2], files[1]}));
    QVERIFY(QFile::remove(files[2]));
    QCOMPARE(RecentProjects::list(), (QStringList{files[0], files[1]}));
    writeText(files[2], "{}");  // back on disk, but it was forgotten
    QCOMPARE(RecentProjects::list(), (QStringList{files[0], files[1]}));
    RecentProjects::add(files[2], 2);
    QCOMPARE(RecentProjects::list(), (QStringList{files[2], files[0]}));

    // Saving puts the project first in File > Open recent, and the menu lists it.
    MainWindow w;
    const QString saved = dir_.path() + "/recent-saved.apertura";
    QVERIFY(w.projectActions()->saveAs(saved));
    QCOMPARE(RecentProjects::list().first(), saved);
    QMenu* menu = w.projectActions()->recentMenu();
    emit menu->aboutToShow();
    QStringList entries;
    for (QAction* a : menu->actions()) {
      if (!a->data().toString().isEmpty())
        entries << a->data().toString();
    }
    QCOMPARE(entries, (QStringList{saved, files[2], files[0]}));
    QVERIFY(menu->actions().first()->text().contains("recent-saved.apertura"));
  }

  void invalidProjectShowsTheKeyAndTheWindowStaysUsable() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    ProjectActions* actions = w.projectActions();
    comboWith(w, "natural")->setCurrentText("natural");
    const QString good = dir_.path() + "/good.apertura";
    QVERIFY(actions->saveAs(good));

    const QString bad = dir_.path() + "/bad.apertura";
    writeText(bad, R"({"schema_version": 1, "weighting": {"scheme": "uniform", "robust": 7}})");
    QSignalSpy failed(actions, &ProjectActions::projectFailed);
    QVERIFY(actions->openProject(bad));
    QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 20000);
    QString message = failed.takeFirst().at(1).toString();
    QVERIFY2(message.contains("bad.apertura") && message.contains("weighting.robust") &&
                 message.contains("[-2, 2]"),
             qPrintable(message));
    QMessageBox* box = errorBox(w);
    QVERIFY(box);
    QVERIFY2(box->text().contains("weighting.robust"), qPrintable(box->text()));
    box->close();
    // Nothing of the bad file was applied.
    QCOMPARE(actions->document()->path(), QFileInfo(good).absoluteFilePath());
    QCOMPARE(comboWith(w, "natural")->currentText(), QString("natural"));

    writeText(bad, R"({"schema_version": 1, "views": {"dirty": {"colourmap": "gray"}}})");
    QVERIFY(actions->openProject(bad));
    QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 20000);
    message = failed.takeFirst().at(1).toString();
    QVERIFY2(message.contains("views.dirty.colourmap: unknown key"), qPrintable(message));

    const QString missing = dir_.path() + "/missing.apertura";
    QVERIFY(actions->openProject(missing));
    QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 20000);
    QVERIFY(failed.takeFirst().at(1).toString().contains("no such file or directory"));

    // Still usable: a good project opens.
    QSignalSpy opened(actions, &ProjectActions::projectOpened);
    comboWith(w, "natural")->setCurrentText("uniform");
    actions->setUnsavedPrompt([](const QString&) { return Answer::Discard; });
    QVERIFY(actions->openProject(good));
    QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty(), 20000);
    QCOMPARE(comboWith(w, "natural")->currentText(), QString("natural"));
    QVERIFY(!actions->document()->isModified());
  }

  void preferencesApplyToNewProjects() {
    apertura::gui::PreferencesDialog dialog;
    dialog.colormapBox()->setCurrentText("viridis");
    dialog.threadsBox()->setValue(3);
    dialog.recentBox()->setValue(2);
    dialog.snapshotBox()->setValue(7);
    if (const QString shot = artifact("preferences-dialog.png"); !shot.isEmpty())
      QVERIFY(dialog.grab().save(shot));
    dialog.accept();
    const auto prefs = apertura::gui::AppPreferences::load();
    QCOMPARE(prefs.default_colormap, QString("viridis"));
    QCOMPARE(prefs.threads, 3);
    QCOMPARE(prefs.recent_count, 2);
    QCOMPARE(prefs.snapshot_every, 7);

    MainWindow w;
    QVERIFY(w.projectActions()->newProject());
    const auto s = w.projectActions()->currentProject();
    QVERIFY(s);
    QCOMPARE(s->imaging.threads, 3);
    QCOMPARE(s->optimizer.snapshot_every, 7);
    QCOMPARE(s->views.at("dirty").colormap, std::string("viridis"));
    QCOMPARE(s->views.at("residual").colormap, std::string("coolwarm"));  // stays diverging
    for (int i = 0; i < 3; ++i) {
      const QString f = dir_.path() + QString("/pref-%1.apertura").arg(i);
      QVERIFY(w.projectActions()->saveAs(f));
    }
    QCOMPARE(apertura::gui::RecentProjects::list().size(), 2);
  }

  // Issue #35 item 8: the window's size and docks come back in the next session.
  void windowLayoutIsRemembered() {
    QVERIFY(!apertura::gui::restoreWindowLayout(*std::make_unique<MainWindow>()));  // none yet
    {
      MainWindow w;
      w.setRemembersLayout(true);
      w.resize(1220, 760);
      w.show();
      QVERIFY(QTest::qWaitForWindowExposed(&w));
      w.findChild<QDockWidget*>("mask-dock")->hide();
      w.findChild<QDockWidget*>("plots-dock")->setFloating(true);
      QVERIFY(w.close());
    }
    MainWindow again;
    QVERIFY(apertura::gui::restoreWindowLayout(again));
    again.show();
    QVERIFY(QTest::qWaitForWindowExposed(&again));
    QCOMPARE(again.size(), QSize(1220, 760));
    QVERIFY(!again.findChild<QDockWidget*>("mask-dock")->isVisible());
    QVERIFY(again.findChild<QDockWidget*>("plots-dock")->isFloating());
    QVERIFY(again.findChild<QDockWidget*>("settings-dock")->isVisible());
    // A window that does not remember (tests, scripted screenshots) leaves the saved one alone.
    again.findChild<QDockWidget*>("mask-dock")->show();
    QVERIFY(again.close());
    MainWindow third;
    QVERIFY(apertura::gui::restoreWindowLayout(third));
    QVERIFY(third.findChild<QDockWidget*>("mask-dock")->isHidden());
  }

 private:
  QTemporaryDir dir_;
};

int main(int argc, char** argv) {
  return apertura::testing::runWindowTest<TestProjectRecentPrefs>(argc, argv,
                                                                  "test_project_recent_prefs");
}

#include "test_project_recent_prefs.moc"
