// Project files: a round trip that covers every field, the errors a user can make in a hand-edited
// file, relative data paths and atomic saving.
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/stat.h>

#include "core/io/dataset_format.h"
#include "core/project/project_file.h"
#include "core/project/project_overrides.h"
#include "core/util/input_error.h"
#include "tests/project/project_load_error.h"

using namespace apertura;
using namespace apertura::project;
using apertura::project::test::loadError;

namespace {

// Every field differs from its default, so a field the writer or reader forgets breaks the test.
ProjectSettings everyFieldSet(const std::string& data_path) {
  ProjectSettings s;
  s.data = {data_path, 3, {0, 2}, 4, 60, "XX", "CORRECTED_DATA", 50000, 2.5, ReadMode::kResident};
  s.weighting = {imaging::WeightingScheme::Uniform, -1.25, 0.75, 2.0};
  s.imaging.nx = 1024;
  s.imaging.ny = 768;
  s.imaging.cell_arcsec = 0.05;
  s.imaging.kernel = imaging::KernelType::KaiserBessel;
  s.imaging.epsilon = 1e-6;
  s.imaging.oversampling = 1.5;
  s.imaging.w_stacking = true;
  s.imaging.backend = imaging::Backend::Cuda;
  s.imaging.gpu_device = 1;
  s.imaging.threads = 2;
  s.imaging.precision = Precision::Double;
  s.imaging.grid_accumulation = Precision::Float;
  s.imaging.channels_per_plane = 3;
  s.imaging.mfs_spectrum = MfsSpectrum::Auto;    // (linear is refused with w_stacking)
  s.imaging.data_operator = OperatorMode::Auto;  // (psf is refused with w_stacking)
  s.regularizers = {{"entropy", 0.01, true, {{"prior", 1e-5}}, {0}},
                    {"tv", 0.002, false, {{"epsilon", 1e-8}, {"weight", 2.0}}}};
  s.optimizer.method = OptimizerMethod::CgHz;
  s.optimizer.line_search = rml::LineSearchKind::Brent;
  s.optimizer.max_iterations = 250;
  s.optimizer.history = 7;
  s.optimizer.relative_tolerance = 1e-9;
  s.optimizer.gradient_tolerance = 1e-12;
  s.optimizer.patience = 4;
  s.optimizer.time_limit_s = 120.0;
  s.optimizer.positivity = Positivity::Softplus;
  s.optimizer.mask_support = false;
  s.optimizer.snapshot_every = 3;
  s.optimizer.in_memory_limit = 3;
  s.optimizer.history_memory_gb = 1.5;
  s.optimizer.scratch_dir = "/scratch/apertura";
  s.optimizer.history_precision = Precision::Float;
  s.optimizer.initial_model = data_path + "-previous-model.fits";
  s.mask = {{"rectangle", false, {1, 2, 30, 40}},
            {"ellipse", true, {10, 10, 5, 3, 30}},
            {"polygon", false, {0, 0, 10, 0, 5, 8}}};
  s.output.prefix = "out/run1";
  s.output.dirty = false;
  s.output.psf = false;
  s.output.model = true;
  s.output.residual = false;
  s.output.restored = true;
  s.output.metrics_csv = false;
  s.output.write_model_column = true;
  s.output.model_column = "MODEL_APERTURA";
  s.output.write_residual_column = true;
  s.output.residual_column = "RESID_APERTURA";
  s.output.model_ms = data_path + "-model.ms";
  s.output.model_in_place = true;
  return s;
}

// The fields everyFieldSet cannot change together with the others: a cube refuses w-stacking and
// writing visibilities back.
ProjectSettings cubeFieldsSet(const std::string& data_path) {
  ProjectSettings s = everyFieldSet(data_path);
  s.imaging.spectral_mode = SpectralMode::Cube;
  s.imaging.w_stacking = false;
  s.output.write_model_column = false;
  s.output.write_residual_column = false;
  s.regularizers[0].planes = {1, 2};
  s.output.model = false;
  s.output.restored = false;
  return s;
}

QJsonObject jsonOf(const ProjectSettings& s) {
  return QJsonDocument::fromJson(QByteArray::fromStdString(projectToJson(s, ""))).object();
}

// Keys of `reference` whose value is the same in every one of `variants`.
QStringList unchangedKeys(const QString& at, const QJsonObject& reference,
                          const QList<QJsonObject>& variants) {
  QStringList same;
  for (auto it = reference.begin(); it != reference.end(); ++it) {
    bool changed = false;
    for (const QJsonObject& v : variants)
      changed = changed || v.value(it.key()) != it.value();
    if (!changed)
      same << at + "." + it.key();
  }
  return same;
}

std::string minimal(const std::string& extra) {
  return "{\"schema_version\": 1" + (extra.empty() ? "" : ", " + extra) + "}";
}

}  // namespace

class TestProjectFile : public QObject {
  Q_OBJECT
 private slots:
  // The round trip below covers every field only if each differs from its default in one of the
  // two projects: checked key by key through the writer, which walks the field tables, so a new
  // field fails here until the test sets it.
  void roundTripProjectsSetEveryField() {
    const QJsonObject defaults = jsonOf(ProjectSettings{});
    const QList<QJsonObject> set = {jsonOf(everyFieldSet("/d.ms")), jsonOf(cubeFieldsSet("/d.ms"))};
    QStringList unchanged;
    for (const char* section : {"data", "weighting", "imaging", "optimizer", "output"}) {
      QList<QJsonObject> variants;
      for (const QJsonObject& v : set)
        variants << v.value(section).toObject();
      unchanged << unchangedKeys(section, defaults.value(section).toObject(), variants);
    }
    ProjectSettings one_term;
    one_term.regularizers.emplace_back();
    one_term.mask.emplace_back();
    for (const char* list : {"regularizers", "mask"}) {
      QList<QJsonObject> variants;
      for (const QJsonObject& v : set)
        for (const auto& entry : v.value(list).toArray())
          variants << entry.toObject();
      unchanged << unchangedKeys(QString(list) + "[0]",
                                 jsonOf(one_term).value(list).toArray().at(0).toObject(), variants);
    }
    QVERIFY2(unchanged.isEmpty(), qPrintable("left at their defaults: " + unchanged.join(", ")));
  }

  void cubeFieldsRoundTrip() {
    QTemporaryDir dir;
    const std::string base = dir.path().toStdString();
    QDir().mkpath(dir.path() + "/data/obs.ms");
    const ProjectSettings a = cubeFieldsSet(base + "/data/obs.ms");
    const std::string file = base + "/p.apertura";
    saveProject(a, file);
    QCOMPARE(QString::fromStdString(projectToJson(loadProject(file), base)),
             QString::fromStdString(projectToJson(a, base)));
  }

  void roundTripKeepsEveryField() {
    QTemporaryDir dir;
    const std::string base = dir.path().toStdString();
    QDir().mkpath(dir.path() + "/data/obs.ms");
    const ProjectSettings a = everyFieldSet(base + "/data/obs.ms");
    const std::string file = base + "/p.apertura";
    saveProject(a, file);
    const ProjectSettings b = loadProject(file);
    // Serialising both gives identical text only if every field survived.
    QCOMPARE(QString::fromStdString(projectToJson(b, base)),
             QString::fromStdString(projectToJson(a, base)));
    QCOMPARE(b.data.path, a.data.path);
    QCOMPARE(*b.data.memory_budget_gb, 2.5);
    QCOMPARE(b.data.mode, apertura::ReadMode::kResident);
    QCOMPARE(b.regularizers[1].parameters.at("weight"), 2.0);
    QCOMPARE(b.mask[2].values.size(), std::size_t(6));
    QCOMPARE(*b.optimizer.time_limit_s, 120.0);
    QCOMPARE(*b.optimizer.in_memory_limit, 3);
    QCOMPARE(*b.optimizer.history_memory_gb, 1.5);
    QCOMPARE(b.optimizer.scratch_dir, std::string("/scratch/apertura"));
    QCOMPARE(b.optimizer.history_precision, apertura::project::Precision::Float);
    QCOMPARE(b.optimizer.initial_model, a.optimizer.initial_model);
    // Stored relative to the project file, like the data set.
    QVERIFY(projectToJson(b, base).find("\"initial_model\": \"data/obs.ms-previous-model.fits\"") !=
            std::string::npos);
    QCOMPARE(b.imaging.precision, apertura::project::Precision::Double);
  }

  void autoValuesAndRelativePaths() {
    QTemporaryDir dir;
    const std::string base = dir.path().toStdString();
    ProjectSettings s = defaultProject();
    s.data.path = base + "/sub/x.ms";
    const std::string text = projectToJson(s, base);
    QVERIFY2(text.find("\"path\": \"sub/x.ms\"") != std::string::npos, text.c_str());
    QVERIFY(text.find("\"cell_arcsec\": \"auto\"") != std::string::npos);
    const ProjectSettings back = projectFromJson(text, base, "p.apertura");
    QCOMPARE(back.data.path, base + "/sub/x.ms");
    QVERIFY(!back.imaging.cell_arcsec.has_value());
    QVERIFY(!back.data.chunk_rows.has_value());
    QVERIFY(text.find("\"in_memory_limit\": \"auto\"") != std::string::npos);
    QVERIFY(!back.optimizer.in_memory_limit.has_value());
    QVERIFY(text.find("\"history_memory_gb\": \"auto\"") != std::string::npos);
    QVERIFY(!back.optimizer.history_memory_gb.has_value());
    QVERIFY(back.optimizer.scratch_dir.empty());
    // A new project fits a linear spectrum on wide bands; a file that does not say is flat.
    QVERIFY(text.find("\"mfs_spectrum\": \"auto\"") != std::string::npos);
    QCOMPARE(back.imaging.mfs_spectrum, apertura::project::MfsSpectrum::Auto);
    QCOMPARE(ImagingSettings{}.mfs_spectrum, apertura::project::MfsSpectrum::Flat);
    // The same for the optimizer's chi2: auto in a new project, visibilities when unsaid.
    QVERIFY(text.find("\"operator\": \"auto\"") != std::string::npos);
    QCOMPARE(back.imaging.data_operator, apertura::project::OperatorMode::Auto);
    QCOMPARE(ImagingSettings{}.data_operator, apertura::project::OperatorMode::Visibilities);
    // Outside the project folder the path stays absolute.
    s.data.path = "/elsewhere/y.ms";
    QVERIFY(projectToJson(s, base).find("\"/elsewhere/y.ms\"") != std::string::npos);
  }

  void keysAreSorted() {
    const std::string text = projectToJson(defaultProject(), "");
    const auto pos = [&](const char* k) { return text.find(std::string("\"") + k + "\""); };
    QVERIFY(pos("data") < pos("imaging"));
    QVERIFY(pos("imaging") < pos("mask"));
    QVERIFY(pos("optimizer") < pos("output"));
    QVERIFY(pos("output") < pos("regularizers"));
    QVERIFY(pos("regularizers") < pos("schema_version"));
  }

  void defaultsFillMissingSections() {
    const ProjectSettings s = projectFromJson(minimal(""), "/tmp", "p.apertura");
    QCOMPARE(s.imaging.nx, ImagingSettings{}.nx);
    QCOMPARE(s.weighting.scheme, apertura::imaging::WeightingScheme::Briggs);
    QVERIFY(s.regularizers.empty());
  }

  void errorsNameTheField_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown key") << QString::fromStdString(minimal("\"imaging\": {\"cel\": 1}"))
                                 << "p.apertura: imaging.cel: unknown key";
    QTest::newRow("unknown top key")
        << QString::fromStdString(minimal("\"colour\": 1")) << "p.apertura: colour: unknown key";
    QTest::newRow("wrong type") << QString::fromStdString(minimal("\"imaging\": {\"nx\": \"big\"}"))
                                << "imaging.nx: expected an integer, got string";
    QTest::newRow("negative lambda")
        << QString::fromStdString(minimal("\"regularizers\": [{\"type\": \"l1\", \"lambda\": 1}, "
                                          "{\"type\": \"tv\", \"lambda\": -0.5}]"))
        << "regularizers[1].lambda: must be >= 0";
    QTest::newRow("robust out of range")
        << QString::fromStdString(minimal("\"weighting\": {\"robust\": 3}"))
        << "weighting.robust: must lie in [-2, 2]";
    QTest::newRow("odd image size") << QString::fromStdString(minimal("\"imaging\": {\"nx\": 513}"))
                                    << "imaging.nx: must be even";
    QTest::newRow("unknown backend")
        << QString::fromStdString(minimal("\"imaging\": {\"backend\": \"opencl\"}"))
        << "imaging.backend: 'opencl' is not one of: auto, cpu, cuda";
    QTest::newRow("bad vocabulary")
        << QString::fromStdString(minimal("\"optimizer\": {\"method\": \"newton\"}"))
        << "optimizer.method: 'newton' is not one of: lbfgs";
    QTest::newRow("in-memory limit above history")
        << QString::fromStdString(
               minimal("\"optimizer\": {\"history\": 5, \"in_memory_limit\": 6}"))
        << "optimizer.in_memory_limit: must lie in [1, optimizer.history]";
    QTest::newRow("history memory")
        << QString::fromStdString(minimal("\"optimizer\": {\"history_memory_gb\": 0}"))
        << "optimizer.history_memory_gb: must be > 0";
    QTest::newRow("history precision")
        << QString::fromStdString(minimal("\"optimizer\": {\"history_precision\": \"half\"}"))
        << "optimizer.history_precision: 'half' is not one of: double";
    QTest::newRow("data mode") << QString::fromStdString(minimal("\"data\": {\"mode\": \"disk\"}"))
                               << "data.mode: 'disk' is not one of: auto";
    QTest::newRow("streaming with w-stacking")
        << QString::fromStdString(
               minimal("\"data\": {\"mode\": \"streaming\"}, \"imaging\": {\"w_stacking\": true}"))
        << "data.mode: streaming cannot be combined with imaging.w_stacking";
    QTest::newRow("polygon too short")
        << QString::fromStdString(
               minimal("\"mask\": [{\"shape\": \"polygon\", \"values\": [1, 2, 3, 4]}]"))
        << "mask[0].values: a polygon needs at least 3";
    QTest::newRow("model into DATA")
        << QString::fromStdString(
               minimal("\"output\": {\"write_model_column\": true, \"model_column\": \"DATA\"}"))
        << "output.model_column: DATA and CORRECTED_DATA are never overwritten";
    QTest::newRow("newer schema") << QString("{\"schema_version\": 99}")
                                  << "schema_version: version 99 is newer";
    QTest::newRow("no schema") << QString("{}") << "schema_version: missing";
    QTest::newRow("not json") << QString("{\"schema_version\": 1,") << "not valid JSON";
    QTest::newRow("not an object") << QString("[1, 2]") << "expected an object";
    QTest::newRow("parameter type")
        << QString::fromStdString(minimal(
               "\"regularizers\": [{\"type\": \"tv\", \"parameters\": {\"epsilon\": \"x\"}}]"))
        << "regularizers[0].parameters.epsilon: expected a number";
  }

  void errorsNameTheField() {
    QFETCH(QString, json);
    QFETCH(QString, expected);
    const QString e = loadError(json.toStdString());
    QVERIFY2(e.contains(expected), qPrintable(e));
  }

  void missingDataSetIsAnError() {
    QTemporaryDir dir;
    const std::string file = dir.path().toStdString() + "/p.apertura";
    std::ofstream(file) << minimal("\"data\": {\"path\": \"gone.ms\"}");
    try {
      loadProject(file);
      QFAIL("a project naming a missing data set loaded");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("data.path: data set") &&
                   QString(e.what()).contains("gone.ms does not exist"),
               e.what());
    }
  }

  void savingIsAtomicAndValidated() {
    QTemporaryDir dir;
    const std::string file = dir.path().toStdString() + "/p.apertura";
    saveProject(defaultProject(), file);
    std::ifstream in(file);
    std::stringstream before;
    before << in.rdbuf();
    ProjectSettings bad = defaultProject();
    bad.imaging.nx = 2;
    QVERIFY_THROWS_EXCEPTION(InputError, saveProject(bad, file));
    std::ifstream again(file);
    std::stringstream after;
    after << again.rdbuf();
    QCOMPARE(after.str(), before.str());
    // No temporary siblings left behind.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1);
    QVERIFY_THROWS_EXCEPTION(InputError,
                             saveProject(defaultProject(), "/nonexistent/dir/p.apertura"));
  }

  // A FIFO blocked `info` forever and /dev/zero filled the memory (issue #33): refused at once.
  void nonRegularFilesAreRefused() {
    QTemporaryDir dir;
    const std::string fifo = dir.filePath("pipe").toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    const auto loadError = [](const std::string& p) {
      try {
        loadProject(p);
      } catch (const InputError& e) {
        return QString::fromStdString(e.what());
      }
      return QString();
    };
    QVERIFY2(loadError(fifo).contains("pipe: is not a regular file"), qPrintable(loadError(fifo)));
    QVERIFY2(loadError("/dev/zero").contains("/dev/zero: is not a regular file"),
             qPrintable(loadError("/dev/zero")));
    QVERIFY2(loadError(dir.path().toStdString()).contains("is a folder"),
             qPrintable(loadError(dir.path().toStdString())));
    const std::string big = dir.filePath("big.apertura").toStdString();
    std::ofstream(big) << "{}";
    std::filesystem::resize_file(big, (16u << 20) + 1);
    QVERIFY2(loadError(big).contains("big.apertura: is larger than 16 MiB"),
             qPrintable(loadError(big)));
    for (const std::string& p : {fifo, std::string("/dev/zero")}) {
      try {
        detectDatasetFormat(p);
        QFAIL("expected an InputError");
      } catch (const InputError& e) {
        QVERIFY2(QString(e.what()).contains("is not a regular file"), e.what());
      }
    }
  }

  void overridesApplyAndValidate() {
    ProjectSettings s = defaultProject();
    s.regularizers.push_back({"tsv", 0.0, false, {}});
    const ProjectSettings o =
        applyOverrides(s,
                       {"imaging.nx=1024", "weighting.scheme=uniform", "imaging.cell_arcsec=0.25",
                        "regularizers[1].lambda=0.5", "regularizers[0].lambda=auto",
                        "optimizer.time_limit_s=auto", "data.spectral_windows=[1,3]"},
                       "/tmp");
    QCOMPARE(o.imaging.nx, 1024);
    QCOMPARE(o.weighting.scheme, apertura::imaging::WeightingScheme::Uniform);
    QCOMPARE(*o.imaging.cell_arcsec, 0.25);
    QCOMPARE(o.regularizers[1].lambda, 0.5);
    QVERIFY(!o.regularizers[0].lambda.has_value());
    QVERIFY(!o.optimizer.time_limit_s.has_value());
    QCOMPARE(o.data.spectral_windows, (std::vector<int>{1, 3}));
    const auto error = [&](const std::string& set) {
      try {
        applyOverrides(s, {set}, "/tmp");
      } catch (const InputError& e) {
        return QString::fromStdString(e.what());
      }
      return QString();
    };
    QVERIFY2(error("imaging.nx=huge").contains("imaging.nx: expected an integer"),
             qPrintable(error("imaging.nx=huge")));
    QVERIFY(error("imaging.nxx=5").contains("imaging.nxx: unknown key"));
    QVERIFY2(error("foo.bar=1")
                 .contains("foo: unknown key (expected one of: application, data, imaging,"),
             qPrintable(error("foo.bar=1")));
    QVERIFY2(error("imaging.nx.y=1").contains("imaging.nx is a single value, not a section"),
             qPrintable(error("imaging.nx.y=1")));
    QVERIFY(error("regularizers[7].lambda=1").contains("index 7 is past the end"));
    QVERIFY(error("weighting.robust=5").contains("weighting.robust: must lie in [-2, 2]"));
    QVERIFY(error("nonsense").contains("expected key=value"));
    // 64-bit values are range-checked before narrowing (they once wrapped: 2^32 + 128 -> 128).
    QVERIFY2(error("imaging.nx=4294967424")
                 .contains("imaging.nx: the integer 4294967424 is out "
                           "of range (-2147483648 to 2147483647)"),
             qPrintable(error("imaging.nx=4294967424")));
    QVERIFY2(error("optimizer.max_iterations=4294967297")
                 .contains("optimizer.max_iterations: the integer 4294967297 is out of range"),
             qPrintable(error("optimizer.max_iterations=4294967297")));
    QVERIFY(error("imaging.nx=-9223372036854775807").contains("imaging.nx: the integer"));
  }
};

QTEST_GUILESS_MAIN(TestProjectFile)
#include "test_project_file.moc"
