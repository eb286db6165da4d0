// The view-state section of project files: it round-trips, older files without it load with
// defaults, and hand-edited mistakes are reported with the key at fault.
#include <QTemporaryDir>
#include <QtTest>

#include "core/project/project_file.h"
#include "core/util/input_error.h"
#include "tests/project/project_load_error.h"

using namespace apertura;
using namespace apertura::project;
using apertura::project::test::loadError;

namespace {

std::string withViews(const std::string& views) {
  return R"({"schema_version": 1, "views": )" + views + "}";
}

}  // namespace

class TestProjectViews : public QObject {
  Q_OBJECT
 private slots:
  void roundTripKeepsEveryViewField() {
    ProjectSettings a = defaultProject();
    ViewSettings& d = a.views["dirty"];
    d.colormap = "cubehelix";
    d.invert = true;
    d.scaling = "power";
    d.power_exponent = 0.7;
    d.clip = "user";
    d.clip_percent = 99.9;
    d.user_min = -0.25;
    d.user_max = 3.5;
    d.zoom = 4.5;
    d.center_x = 100.25;
    d.center_y = -3.0;
    a.views["residual"].colormap = "coolwarm";
    const ProjectSettings b = projectFromJson(projectToJson(a, ""), "", "p.apertura");
    QCOMPARE(b.views.size(), std::size_t(2));
    const ViewSettings& e = b.views.at("dirty");
    QCOMPARE(e.colormap, std::string("cubehelix"));
    QVERIFY(e.invert);
    QCOMPARE(e.scaling, std::string("power"));
    QCOMPARE(e.power_exponent, 0.7);
    QCOMPARE(e.clip, std::string("user"));
    QCOMPARE(e.clip_percent, 99.9);
    QCOMPARE(e.user_min, -0.25);
    QCOMPARE(e.user_max, 3.5);
    QCOMPARE(*e.zoom, 4.5);
    QCOMPARE(e.center_x, 100.25);
    QCOMPARE(e.center_y, -3.0);
    QVERIFY(!b.views.at("residual").zoom);  // "auto": fit to the window
    QCOMPARE(QString::fromStdString(projectToJson(b, "")),
             QString::fromStdString(projectToJson(a, "")));
  }

  void filesWithoutViewsLoadWithDefaults() {
    const ProjectSettings s = projectFromJson(R"({"schema_version": 1})", "", "old.apertura");
    QVERIFY(s.views.empty());
    const ViewSettings v =
        projectFromJson(withViews(R"({"model": {"colormap": "gray"}})"), "", "p.apertura")
            .views.at("model");
    QCOMPARE(v.colormap, std::string("gray"));
    QCOMPARE(v.scaling, std::string("linear"));  // the keys left out keep their defaults
    QCOMPARE(v.clip_percent, 99.5);
    QVERIFY(!v.zoom);
  }

  void mistakesNameTheKey_data() {
    QTest::addColumn<QString>("views");
    QTest::addColumn<QString>("expected");
    QTest::newRow("not an object") << "[1]"
                                   << "p.apertura: views: expected an object, got array";
    QTest::newRow("view not an object") << R"({"dirty": 3})"
                                        << "views.dirty: expected an object";
    QTest::newRow("unknown key") << R"({"dirty": {"colour": "gray"}})"
                                 << "views.dirty.colour: unknown key";
    QTest::newRow("colormap") << R"({"dirty": {"colormap": "jet"}})"
                              << "views.dirty.colormap: 'jet' is not one of";
    QTest::newRow("scaling") << R"({"psf": {"scaling": "cubic"}})"
                             << "views.psf.scaling: 'cubic' is not one of";
    QTest::newRow("clip") << R"({"psf": {"clip": "zscale"}})"
                          << "views.psf.clip: 'zscale' is not one of";
    QTest::newRow("percent") << R"({"psf": {"clip_percent": 120}})"
                             << "views.psf.clip_percent: must lie in (0, 100]";
    QTest::newRow("user range") << R"({"psf": {"clip": "user", "user_min": 2, "user_max": 1}})"
                                << "views.psf.user_max: must be above user_min";
    QTest::newRow("zoom") << R"({"model": {"zoom": 1000}})"
                          << "views.model.zoom: must lie in [1/64, 256]";
    QTest::newRow("zoom type") << R"({"model": {"zoom": "big"}})"
                               << "views.model.zoom: expected a number, got string";
    QTest::newRow("invert type") << R"({"model": {"invert": 1}})"
                                 << "views.model.invert: expected true or false";
  }
  void mistakesNameTheKey() {
    QFETCH(QString, views);
    QFETCH(QString, expected);
    const QString e = loadError(withViews(views.toStdString()));
    QVERIFY2(e.contains(expected), qPrintable(e));
  }

  void savingValidatesViews() {
    QTemporaryDir dir;
    ProjectSettings s = defaultProject();
    s.views["dirty"].zoom = 0.0;
    try {
      saveProject(s, (dir.path() + "/p.apertura").toStdString());
      QFAIL("an invalid zoom was saved");
    } catch (const InputError& e) {
      QVERIFY2(QString::fromStdString(e.what()).contains("views.dirty.zoom"), e.what());
    }
    QVERIFY(!QFile::exists(dir.path() + "/p.apertura"));
  }
};

QTEST_GUILESS_MAIN(TestProjectViews)
#include "test_project_views.moc"
