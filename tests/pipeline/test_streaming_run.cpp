// A run that streams its visibilities from disk on every pass (data.mode streaming, or auto over
// a small memory budget) gives the same images, bit for bit, as one that holds them in memory.
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <filesystem>

#include "tests/support/pipeline_run.h"
#include "tests/support/simulated_ms.h"

using namespace apertura;

namespace {

std::shared_ptr<pipeline::ImagingProducts> run(const project::ProjectSettings& s) {
  const testing::PipelineRun r = testing::runImagingPipeline(s);
  if (!r.finished())
    throw std::runtime_error(r.outcome.message);
  return r.products;
}

template <typename T>
bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && !a.empty() &&
         std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

}  // namespace

class TestStreamingRun : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir dir_;
  project::ProjectSettings base_;

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    const std::string ms = dir_.path().toStdString() + "/two-spw.ms";
    sim::ObservationSpec spec = testing::almaTestObservation();
    spec.spectral_windows = {sim::SpectralWindowSpec{230e9, 100e6, 2},
                             sim::SpectralWindowSpec{232e9, 100e6, 3}};
    testing::simulateAlmaCompactMs(ms, testing::pointAndGaussianSky(), spec);

    base_ = project::defaultProject();
    base_.data.path = ms;
    base_.data.chunk_rows = 97;  // several chunks per spectral window, the last one short
    base_.weighting.scheme = apertura::imaging::WeightingScheme::Briggs;
    base_.imaging.nx = base_.imaging.ny = 64;
    base_.imaging.cell_arcsec = 0.1;
    base_.regularizers = {{"l1", 1e-3, false, {}}};
    base_.optimizer.max_iterations = 8;
    base_.optimizer.relative_tolerance = 0.0;
    base_.output.write_model_column = true;
    base_.output.write_residual_column = true;
  }

  void streamingEqualsResident() {
    project::ProjectSettings resident = base_, streaming = base_;
    resident.data.mode = apertura::ReadMode::kResident;
    resident.output.prefix = dir_.path().toStdString() + "/resident";
    streaming.data.mode = apertura::ReadMode::kStreaming;
    streaming.output.prefix = dir_.path().toStdString() + "/streaming";
    const auto a = run(resident);
    const auto b = run(streaming);
    QCOMPARE(a->data_mode, std::string("resident"));
    QCOMPARE(b->data_mode, std::string("streaming"));
    QCOMPARE(a->samples, b->samples);
    QVERIFY(sameBits(a->dirty, b->dirty));
    QVERIFY(sameBits(a->psf, b->psf));
    QCOMPARE(a->iterations, 8);
    QCOMPARE(b->iterations, 8);
    QVERIFY(sameBits(a->model, b->model));
    QVERIFY(sameBits(a->residual, b->residual));
    QCOMPARE(a->chi2_per_dof, b->chi2_per_dof);
    // The fit is real: the model has flux and chi2 per degree of freedom came down tenfold.
    double flux = 0.0;
    for (double v : b->model)
      flux += v;
    QVERIFY2(flux > 0.5, qPrintable(QString::number(flux)));
    QVERIFY(!b->metrics.empty());
    QVERIFY2(
        b->chi2_per_dof * 10.0 < b->metrics.front().chi2_per_dof,
        qPrintable(QString("%1 -> %2").arg(b->metrics.front().chi2_per_dof).arg(b->chi2_per_dof)));
    // Model columns were written from the streamed pass too, into a copy of the input.
    QVERIFY(std::filesystem::exists(streaming.output.prefix + "-model.ms"));
    QVERIFY(std::filesystem::exists(streaming.output.prefix + "-model.fits"));
  }

  void autoStreamsWhenTheBudgetIsSmall() {
    project::ProjectSettings s = base_;
    s.output = {};
    s.optimizer.max_iterations = 2;
    s.data.mode = apertura::ReadMode::kAuto;
    QCOMPARE(run(s)->data_mode, std::string("resident"));
    s.data.memory_budget_gb = 1e-4;  // 100 KiB: not even the grids fit
    QCOMPARE(run(s)->data_mode, std::string("streaming"));
  }
};

QTEST_GUILESS_MAIN(TestStreamingRun)
#include "test_streaming_run.moc"
