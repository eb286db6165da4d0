// The JSON line parser behind "Run with launcher": recorded apertura-cli --json lines must reach
// the observer as the same metrics an in-process run reports.
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "core/io/fits_image_io.h"
#include "gui/controller/json_event_parser.h"
#include "gui/controller/queued_run_observer.h"
#include "gui/controller/snapshot_loader.h"

using apertura::gui::JsonEventParser;
using apertura::gui::QueuedRunObserver;
using Kind = JsonEventParser::Kind;

class TestJsonEventParser : public QObject {
  Q_OBJECT
 private slots:
  void recordedRunFeedsObserver() {
    // Lines as ConsoleObserver writes them (nlohmann dump of each event).
    const QList<QByteArray> lines = {
        R"({"event":"stage_started","stage":"optimize"})",
        R"({"event":"progress","fraction":0.25,"message":"iteration 1"})",
        R"({"chi2_per_dof":3.5,"event":"iteration","gradient_norm":0.125,"iteration":1,"objective":12.5,"seconds":0.02,"step":0.5,"terms":{"chi2":10.0,"l1":2.5}})",
        R"({"chi2_per_dof":1.25,"event":"iteration","gradient_norm":0.0625,"iteration":2,"objective":6.0,"seconds":0.03,"step":1.0,"terms":{"chi2":5.0,"l1":1.0}})",
        R"({"cpu_s":2.0,"event":"resources","peak_rss_bytes":2097152,"rss_bytes":1048576,"tracked_bytes":4096,"wall_s":1.5})",
        R"({"event":"warning","message":"few visibilities"})",
        R"({"event":"stage_finished","seconds":0.75,"stage":"optimize"})",
    };
    QueuedRunObserver observer;
    for (const auto& line : lines)
      QCOMPARE(JsonEventParser::feed(line, observer).kind, Kind::Observer);
    const auto batch = observer.take();
    QCOMPARE(batch.metrics.size(), std::size_t(2));
    QCOMPARE(batch.metrics[0].iteration, 1);
    QCOMPARE(batch.metrics[0].objective, 12.5);
    QCOMPARE(batch.metrics[0].chi2_per_dof, 3.5);
    QCOMPARE(batch.metrics[0].gradient_norm, 0.125);
    QCOMPARE(batch.metrics[0].step, 0.5);
    QCOMPARE(batch.metrics[0].seconds, 0.02);
    QCOMPARE(batch.metrics[0].terms.size(), std::size_t(2));
    QCOMPARE(batch.metrics[0].terms[0].first, std::string("chi2"));
    QCOMPARE(batch.metrics[0].terms[0].second, 10.0);
    QCOMPARE(batch.metrics[0].terms[1].first, std::string("l1"));
    QCOMPARE(batch.metrics[0].terms[1].second, 2.5);
    QCOMPARE(batch.metrics[1].iteration, 2);
    QCOMPARE(batch.metrics[1].objective, 6.0);
    QCOMPARE(batch.stages.size(), std::size_t(2));
    QCOMPARE(batch.stages[0].stage, std::string("optimize"));
    QVERIFY(!batch.stages[0].finished);
    QVERIFY(batch.stages[1].finished);
    QCOMPARE(batch.stages[1].seconds, 0.75);
    QVERIFY(batch.progress.has_value());
    QCOMPARE(batch.progress->first, 0.25);
    QCOMPARE(batch.progress->second, std::string("iteration 1"));
    QVERIFY(batch.resources.has_value());
    QCOMPARE(batch.resources->peak_rss_bytes, std::uint64_t(2097152));
    QCOMPARE(batch.resources->wall_s, 1.5);
    QCOMPARE(batch.warnings.size(), std::size_t(1));
    QCOMPARE(batch.warnings[0], std::string("few visibilities"));
  }

  void terminalEvents() {
    QueuedRunObserver observer;
    auto r = JsonEventParser::feed(
        R"({"event":"finished","message":"finished: 5 iterations (max), chi2/dof 1.0"})", observer);
    QCOMPARE(r.kind, Kind::Finished);
    QVERIFY(r.message.startsWith("finished: 5 iterations"));
    r = JsonEventParser::feed(R"({"event":"wrote","message":"wrote /tmp/out/model.fits"})",
                              observer);
    QCOMPARE(r.kind, Kind::Wrote);
    QCOMPARE(r.path, QStringLiteral("/tmp/out/model.fits"));
    r = JsonEventParser::feed(R"({"event":"cancelled","message":"cancelled"})", observer);
    QCOMPARE(r.kind, Kind::Cancelled);
    const auto batch = observer.take();
    QVERIFY(batch.metrics.empty());
    QVERIFY(batch.stages.empty());
  }

  // --snapshot-dir lines name a complete FITS file; read back it is the engine's snapshot.
  void snapshotLinesAndFiles() {
    QueuedRunObserver observer;
    auto r = JsonEventParser::feed(
        R"({"event":"snapshot","iteration":7,"model":"/tmp/s/model-000007.fits","name":"model","nx":4,"ny":3,"path":"/tmp/s/model-000007.fits","unit":"Jy/pixel"})",
        observer);
    QCOMPARE(r.kind, Kind::Snapshot);
    QCOMPARE(r.path, QStringLiteral("/tmp/s/model-000007.fits"));
    QCOMPARE(r.name, QStringLiteral("model"));
    QCOMPARE(r.iteration, 7);
    // The path under the image's name alone is enough.
    r = JsonEventParser::feed(
        R"({"event":"snapshot","iteration":-1,"name":"dirty","dirty":"/tmp/s/dirty-init.fits"})",
        observer);
    QCOMPARE(r.kind, Kind::Snapshot);
    QCOMPARE(r.path, QStringLiteral("/tmp/s/dirty-init.fits"));
    QCOMPARE(r.iteration, -1);
    r = JsonEventParser::feed(R"({"event":"snapshot","iteration":3,"name":"model"})", observer);
    QCOMPARE(r.kind, Kind::Malformed);
    QVERIFY(r.message.contains("snapshot"));
    QVERIFY(observer.take().images.empty());  // reading the file is ExternalRun's job

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    apertura::FitsImage f;
    f.nx = 4;
    f.ny = 3;
    for (int i = 0; i < 12; ++i)
      f.pixels.push_back(0.25 * i - 1.0);
    f.cell_x_rad = -1e-6;
    f.cell_y_rad = 1e-6;
    f.ref_pixel_x = 2;
    f.ref_pixel_y = 1;
    f.ref_ra_rad = 1.5;
    f.ref_dec_rad = -0.5;
    f.bunit = "JY/BEAM";
    f.beam = apertura::ImageBeam{3e-6, 2e-6, 0.5};
    const QString path = dir.filePath("residual-000007.fits");
    apertura::writeFitsImage(path.toStdString(), f);
    const auto image = apertura::gui::readSnapshotFile(path, "residual", 7);
    QCOMPARE(image->name, std::string("residual"));
    QCOMPARE(image->iteration, 7);
    QCOMPARE(image->nx, 4);
    QCOMPARE(image->ny, 3);
    QCOMPARE(image->unit, std::string("Jy/beam"));
    QCOMPARE(image->pixels.size(), std::size_t(12));
    QCOMPARE(image->pixels[5], 0.25f);
    QCOMPARE(image->pixels[11], 1.75f);
    QVERIFY(std::abs(image->cell_x_rad + 1e-6) < 1e-15);
    QVERIFY(std::abs(image->ref_ra_rad - 1.5) < 1e-12);
    QVERIFY(std::abs(image->ref_dec_rad + 0.5) < 1e-12);
    QVERIFY(std::abs(image->beam_major_rad - 3e-6) < 1e-12);
    QVERIFY(std::abs(image->beam_pa_rad - 0.5) < 1e-9);
    // A missing or broken file is an error naming it, never a crash.
    try {
      apertura::gui::readSnapshotFile(dir.filePath("missing.fits"), "model", 1);
      QFAIL("no error for a missing file");
    } catch (const std::exception& e) {
      QVERIFY2(QString(e.what()).contains("missing.fits"), e.what());
    }
  }

  void badLinesAreTextNotCrashes() {
    QueuedRunObserver observer;
    auto r = JsonEventParser::feed("Warning: Permanently added host to known hosts\n", observer);
    QCOMPARE(r.kind, Kind::NotJson);
    QCOMPARE(r.message, QStringLiteral("Warning: Permanently added host to known hosts"));
    r = JsonEventParser::feed(R"({"event":"iteration","objective":"x"})", observer);
    QCOMPARE(r.kind, Kind::Malformed);
    QVERIFY(r.message.contains("iteration"));
    r = JsonEventParser::feed(R"({"stage":"optimize"})", observer);
    QCOMPARE(r.kind, Kind::Malformed);
    r = JsonEventParser::feed(R"([1,2,3])", observer);
    QCOMPARE(r.kind, Kind::NotJson);
    r = JsonEventParser::feed(R"({"event":"stage_finished","stage":"grid"})", observer);
    QCOMPARE(r.kind, Kind::Malformed);
    QVERIFY(observer.take().stages.empty());
  }
};

QTEST_GUILESS_MAIN(TestJsonEventParser)
#include "test_json_event_parser.moc"
