// Paths in a project file are relative to the file's folder: every path field (data set, initial
// model, model Measurement Set) resolves the same way on load and is written back relative to the
// folder when it lies inside it, absolute otherwise.
#include <QTemporaryDir>
#include <QtTest>
#include <string>

#include "core/project/project_file.h"

using namespace apertura::project;

namespace {

std::string withPaths(const std::string& data, const std::string& initial, const std::string& ms) {
  return R"({"schema_version": 1, "data": {"path": ")" + data +
         R"("}, "optimizer": {"initial_model": ")" + initial + R"("}, "output": {"model_ms": ")" +
         ms + R"("}})";
}

}  // namespace

class TestProjectPaths : public QObject {
  Q_OBJECT
 private slots:
  void relativePathsResolveAgainstTheProjectFolder() {
    const ProjectSettings s = projectFromJson(
        withPaths("obs/a.ms", "./runs/../runs/m.fits", "../elsewhere/b.ms"), "/p/q", "p.apertura");
    QCOMPARE(s.data.path, std::string("/p/q/obs/a.ms"));
    QCOMPARE(s.optimizer.initial_model, std::string("/p/q/runs/m.fits"));
    QCOMPARE(s.output.model_ms, std::string("/p/elsewhere/b.ms"));
  }

  void absoluteAndEmptyPathsStayAsWritten() {
    const ProjectSettings s =
        projectFromJson(withPaths("/data/a.ms", "", "/data/b.ms"), "/p/q", "p.apertura");
    QCOMPARE(s.data.path, std::string("/data/a.ms"));
    QVERIFY(s.optimizer.initial_model.empty());
    QCOMPARE(s.output.model_ms, std::string("/data/b.ms"));
    // Without a folder (text not read from a file) relative paths are left alone.
    const ProjectSettings t = projectFromJson(withPaths("a.ms", "m.fits", "b.ms"), "", "text");
    QCOMPARE(t.data.path, std::string("a.ms"));
    QCOMPARE(t.optimizer.initial_model, std::string("m.fits"));
    QCOMPARE(t.output.model_ms, std::string("b.ms"));
  }

  void savedRelativeInsideTheFolderAbsoluteOutside() {
    QTemporaryDir dir;
    const std::string base = dir.path().toStdString();
    ProjectSettings s = defaultProject();
    s.data.path = base + "/obs/a.ms";
    s.optimizer.initial_model = base + "/runs/m.fits";
    s.output.model_ms = "/elsewhere/b.ms";
    const std::string text = projectToJson(s, base);
    QVERIFY2(text.find("\"path\": \"obs/a.ms\"") != std::string::npos, text.c_str());
    QVERIFY2(text.find("\"initial_model\": \"runs/m.fits\"") != std::string::npos, text.c_str());
    QVERIFY2(text.find("\"model_ms\": \"/elsewhere/b.ms\"") != std::string::npos, text.c_str());
    const ProjectSettings back = projectFromJson(text, base, "p.apertura");
    QCOMPARE(back.data.path, s.data.path);
    QCOMPARE(back.optimizer.initial_model, s.optimizer.initial_model);
    QCOMPARE(back.output.model_ms, s.output.model_ms);
  }
};

QTEST_GUILESS_MAIN(TestProjectPaths)
#include "test_project_paths.moc"
