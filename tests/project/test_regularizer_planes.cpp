// The planes a regularizer acts on (regularizers[i].planes, issue #13): the project file's
// "planes" key (round trip, written only when set, type errors), validation (negative, listed
// twice, MFS projects) and the "0-3, 7" text form the GUI edits.
#include <QtTest>
#include <utility>

#include "core/project/plane_list.h"
#include "core/project/project_file.h"
#include "core/util/input_error.h"
#include "tests/project/project_load_error.h"

using namespace apertura;
using namespace apertura::project;
using apertura::project::test::loadError;

namespace {

ProjectSettings cubeProject() {
  ProjectSettings s;
  s.imaging.spectral_mode = apertura::project::SpectralMode::Cube;
  s.regularizers = {{"l1", 1e-3, false, {}, {0, 3, 1}},
                    {"tsv-spectral", 2e-3, false, {}, {2, 3, 4}},
                    {"tsv", 1e-4, false, {}}};
  return s;
}

// The message of the InputError validateProject throws, or an empty string.
QString validationError(const ProjectSettings& s) {
  try {
    validateProject(s);
  } catch (const InputError& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

QString parseError(const std::string& text) {
  try {
    parsePlaneList(text, "planes field");
  } catch (const InputError& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace

class TestRegularizerPlanes : public QObject {
  Q_OBJECT
 private slots:
  void jsonRoundTrip() {
    const ProjectSettings s = cubeProject();
    const std::string text = projectToJson(s, "");
    const ProjectSettings back = projectFromJson(text, "", "test");
    QCOMPARE(back.regularizers.size(), std::size_t(3));
    QCOMPARE(back.regularizers[0].planes, (std::vector<int>{0, 3, 1}));  // the file's order
    QCOMPARE(back.regularizers[1].planes, (std::vector<int>{2, 3, 4}));
    QVERIFY(back.regularizers[2].planes.empty());
    // Written back identically; an empty list writes no key, so files without it are unchanged.
    QCOMPARE(projectToJson(back, ""), text);
    ProjectSettings none = s;
    for (auto& r : none.regularizers)
      r.planes.clear();
    QVERIFY(projectToJson(none, "").find("\"planes\"") == std::string::npos);
    QVERIFY(text.find("\"planes\"") != std::string::npos);
  }

  void jsonTypeErrorsNameTheKey() {
    const auto reg = [](const std::string& planes) {
      return R"({"schema_version": 1, "imaging": {"spectral_mode": "cube"}, "regularizers": [)"
             R"({"type": "l1", "lambda": 1e-3}, {"type": "l1", "lambda": 1e-3, "planes": )" +
             planes + "}]}";
    };
    QVERIFY(loadError(reg("[0, 2]")).isEmpty());
    QString e = loadError(reg("\"0-3\""));
    QVERIFY2(e.contains("p.apertura") && e.contains("regularizers[1].planes") &&
                 e.contains("expected an array"),
             qPrintable(e));
    e = loadError(reg("[0, 1.5]"));
    QVERIFY2(e.contains("regularizers[1].planes[1]") && e.contains("expected an integer"),
             qPrintable(e));
    e = loadError(reg("[0, -1]"));
    QVERIFY2(e.contains("regularizers[1].planes") && e.contains("negative"), qPrintable(e));
  }

  void validationRefusesBadLists() {
    QVERIFY(validationError(cubeProject()).isEmpty());
    ProjectSettings bad = cubeProject();
    bad.regularizers[1].planes = {2, -3};
    QString e = validationError(bad);
    QVERIFY2(e.contains("regularizers[1].planes") && e.contains("-3"), qPrintable(e));
    bad = cubeProject();
    bad.regularizers[0].planes = {4, 1, 4};
    e = validationError(bad);
    QVERIFY2(e.contains("regularizers[0].planes") && e.contains("plane 4 is listed twice"),
             qPrintable(e));
    // MFS: one plane, so only [0] (or no list) is accepted.
    ProjectSettings mfs = cubeProject();
    mfs.imaging.spectral_mode = apertura::project::SpectralMode::Mfs;
    e = validationError(mfs);
    QVERIFY2(e.contains("regularizers[0].planes") && e.contains("MFS"), qPrintable(e));
    mfs.regularizers[0].planes = {0};
    mfs.regularizers[1].planes = {};
    QVERIFY2(validationError(mfs).isEmpty(), qPrintable(validationError(mfs)));
    mfs.regularizers[1].planes = {1};
    QVERIFY(validationError(mfs).contains("regularizers[1].planes"));
  }

  void planeListParses() {
    QCOMPARE(parsePlaneList("0-3, 7", "f"), (std::vector<int>{0, 1, 2, 3, 7}));
    QCOMPARE(parsePlaneList(" 5 ,2,  9-10 ", "f"), (std::vector<int>{5, 2, 9, 10}));
    QCOMPARE(parsePlaneList("4-4", "f"), (std::vector<int>{4}));
    QVERIFY(parsePlaneList("", "f").empty());
    QVERIFY(parsePlaneList("   ", "f").empty());
    QCOMPARE(formatPlaneList({7, 0, 1, 2, 3}), std::string("0-3, 7"));
    QCOMPARE(formatPlaneList({4, 5}), std::string("4, 5"));
    QCOMPARE(formatPlaneList({1, 3, 4, 5, 6, 9}), std::string("1, 3-6, 9"));
    QCOMPARE(formatPlaneList({}), std::string());
    for (const std::vector<int>& planes :
         {std::vector<int>{0}, {2, 3, 4, 8, 10, 11}, {0, 1, 2, 3, 4, 5, 6, 7}}) {
      QCOMPARE(parsePlaneList(formatPlaneList(planes), "f"), planes);
    }
  }

  void planeListErrorsSayWhatIsWrong() {
    const std::pair<const char*, const char*> cases[] = {{"0-3, x", "'x'"},
                                                         {"5-2", "backwards"},
                                                         {"1, 2, 1", "plane 1 is listed twice"},
                                                         {"0-3, 2", "plane 2 is listed twice"},
                                                         {"1,,2", "empty entry"},
                                                         {"-1", "'-1'"},
                                                         {"1-2-3", "'1-2-3'"},
                                                         {"99999999", "above"}};
    for (const auto& [text, expected] : cases) {
      const QString e = parseError(text);
      QVERIFY2(e.startsWith("planes field: ") && e.contains(expected),
               qPrintable(QString("'%1': %2").arg(text, e)));
    }
    QVERIFY(parseError("5-2").contains("'5-2'"));
    QVERIFY(!parseError("1.5").isEmpty());
    QVERIFY(!parseError("3,").isEmpty());
  }
};

QTEST_APPLESS_MAIN(TestRegularizerPlanes)
#include "test_regularizer_planes.moc"
