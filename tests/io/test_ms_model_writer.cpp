// Writing model visibilities back into a Measurement Set: into a copy (the input stays byte for
// byte the same), read back through the ordinary reader with data_column = MODEL_DATA, Stokes I
// written as XX = YY = I, single correlations, partial models (zeros in a new column, untouched
// cells in an existing one), and the refusals (no implicit in-place write, no overwriting).
#include <QCryptographicHash>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <functional>
#include <map>

#include "core/io/ms_model_writer.h"
#include "core/io/visibility_source_factory.h"
#include "core/util/input_error.h"
#include "tests/io/read_pass.h"
#include "tests/support/test_ms_builder.h"

using namespace apertura;
using namespace apertura::testing;

namespace {

using cf = std::complex<float>;
using Covered = std::function<bool(std::uint64_t row, std::size_t chan)>;

// Deterministic, never zero (an exact 0 would read back as flagged), distinct per row and channel.
cf model(std::uint64_t row, std::size_t chan) {
  return {1.0f + 0.5f * static_cast<float>(row) + 0.125f * static_cast<float>(chan),
          0.25f * static_cast<float>(chan) - 0.75f * static_cast<float>(row)};
}

std::vector<VisibilityChunk> readChunks(const std::string& ms, Product p, DataColumn column,
                                        VisibilitySelection sel = {}) {
  ReadOptions o;
  o.selection = sel;
  o.selection.product = p;
  o.selection.data_column = column;
  o.mode = ReadMode::kStreaming;
  o.chunk_rows = 3;
  auto src = openVisibilitySource(ms, o);
  return readPass(*src, true).kept;
}

// One model block per chunk, for channels [channel_start, channel_start + nchan of the chunk).
std::vector<ModelBlock> modelFor(const std::vector<VisibilityChunk>& chunks,
                                 std::size_t channel_start) {
  std::vector<ModelBlock> blocks;
  for (const auto& c : chunks) {
    ModelBlock b;
    b.source_rows = c.source_rows;
    b.channel_start = channel_start;
    b.frequencies_hz = c.frequencies_hz;
    for (std::size_t r = 0; r < c.num_rows(); ++r) {
      for (std::size_t k = 0; k < c.num_channels(); ++k)
        b.values.push_back(model(c.source_rows[r], channel_start + k));
    }
    blocks.push_back(std::move(b));
  }
  return blocks;
}

// Samples of `got` (all channels) that differ from what was written: the model where covered and
// the input sample is unflagged, else 0 (flags come from the input; written zeros read as
// flagged). `matched` counts the nonzero model samples found.
int mismatches(const std::vector<VisibilityChunk>& got, const std::vector<VisibilityChunk>& input,
               const Covered& covered, int& matched) {
  int bad = 0;
  matched = 0;
  if (got.size() != input.size())
    return -1;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const auto& g = got[i];
    if (g.source_rows != input[i].source_rows || g.num_samples() != input[i].num_samples())
      return -1;
    for (std::size_t r = 0; r < g.num_rows(); ++r) {
      for (std::size_t c = 0; c < g.num_channels(); ++c) {
        const std::size_t s = r * g.num_channels() + c;
        const std::uint64_t row = g.source_rows[r];
        const bool on = covered(row, c) && input[i].weights[s] > 0.0f;
        const cf want = on ? model(row, c) : cf(0.0f, 0.0f);
        if (g.visibilities[s] != want)
          ++bad;
        else if (on)
          ++matched;
      }
    }
  }
  return bad;
}

std::map<QString, QByteArray> hashTree(const QString& dir) {
  std::map<QString, QByteArray> h;
  QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
  while (it.hasNext()) {
    const QString f = it.next();
    QFile file(f);
    if (!file.open(QIODevice::ReadOnly))
      h[f] = "unreadable";
    else
      h[f] = QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
  }
  return h;
}

bool anyTemporary(const QString& dir) {
  QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
  while (it.hasNext()) {
    if (it.next().contains("apertura-tmp"))
      return true;
  }
  return false;
}

}  // namespace

class TestMsModelWriter : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    ms_ = writeTestMs(path("in.ms"));
  }

  void stokesIModelIntoACopy() {
    const auto input = readChunks(ms_, Product::I, DataColumn::kData);
    const auto before = hashTree(QString::fromStdString(ms_));
    QVERIFY(before.size() > 10);  // table files of MAIN and its subtables

    ModelWriteRequest req;
    req.input_path = ms_;
    req.output_path = path("copy.ms");
    req.blocks = modelFor(input, 0);
    writeModelColumn(req);

    QVERIFY(hashTree(QString::fromStdString(ms_)) == before);
    QVERIFY(!anyTemporary(dir_.path()));

    const Covered all = [](std::uint64_t, std::size_t) { return true; };
    int matched = 0;
    const auto got = readChunks(req.output_path, Product::I, DataColumn::kModelData);
    QCOMPARE(mismatches(got, input, all, matched), 0);
    QCOMPARE(matched, 64 - 10);  // every unflagged Stokes I sample of the test MS
    for (Product hand : {Product::XX, Product::YY}) {
      const auto in_hand = readChunks(ms_, hand, DataColumn::kData);
      QCOMPARE(mismatches(readChunks(req.output_path, hand, DataColumn::kModelData), in_hand, all,
                          matched),
               0);
      QVERIFY(matched > 50);
    }
    // DATA of the copy is the input's, bit for bit.
    const auto copy_data = readChunks(req.output_path, Product::I, DataColumn::kData);
    QCOMPARE(copy_data.size(), input.size());
    for (std::size_t i = 0; i < input.size(); ++i)
      QVERIFY(sameChunk(copy_data[i], input[i]));
  }

  void refusesImplicitInPlaceAndOverwrite() {
    const auto before = hashTree(QString::fromStdString(ms_));
    ModelWriteRequest req;
    req.input_path = ms_;
    req.blocks = modelFor(readChunks(ms_, Product::I, DataColumn::kData), 0);
    try {
      writeModelColumn(req);
      QFAIL("an implicit in-place write was not refused");
    } catch (const InputError& e) {
      QCOMPARE(e.path(), ms_);
      QVERIFY2(QString(e.what()).contains("refusing to write column MODEL_DATA into the input"),
               e.what());
    }
    req.in_place = true;
    req.column = "DATA";
    QVERIFY_THROWS_EXCEPTION(InputError, writeModelColumn(req));

    req.in_place = false;
    req.column = "MODEL_DATA";
    req.output_path = path("exists.ms");
    QVERIFY(QDir().mkdir(QString::fromStdString(req.output_path)));
    try {
      writeModelColumn(req);
      QFAIL("an existing output was overwritten");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("already exists"), e.what());
    }
    QVERIFY(QDir(QString::fromStdString(req.output_path)).isEmpty());
    QVERIFY(hashTree(QString::fromStdString(ms_)) == before);

    // A model for other frequencies is refused, and leaves neither output nor temporary behind.
    req.output_path = path("badfreq.ms");
    req.blocks[0].frequencies_hz[1] += 1e6;
    QVERIFY_THROWS_EXCEPTION(InputError, writeModelColumn(req));
    QVERIFY(!QFile::exists(QString::fromStdString(req.output_path)));
    QVERIFY(!anyTemporary(dir_.path()));
    QVERIFY(hashTree(QString::fromStdString(ms_)) == before);
  }

  // Field 0, channels 2..4 into a new column (the rest zero), then field 1 as XX in place into
  // the now existing column: field 0's values and field 1's YY stay as they were.
  void partialModelsAndSingleCorrelations() {
    VisibilitySelection f0;
    f0.field_ids = {0};
    f0.channel_start = 2;
    f0.channel_count = 3;
    ModelWriteRequest req;
    req.input_path = ms_;
    req.output_path = path("partial.ms");
    req.blocks = modelFor(readChunks(ms_, Product::I, DataColumn::kData, f0), 2);
    writeModelColumn(req);

    // Field 0 is cross rows 0 2 4 6 10 (see test_ms_reader.cpp); 8 is an autocorrelation.
    const auto field0 = [](std::uint64_t row) { return row % 2 == 0; };
    const Covered first = [&](std::uint64_t row, std::size_t c) {
      return field0(row) && c >= 2 && c <= 4;
    };
    int matched = 0;
    const auto in_i = readChunks(ms_, Product::I, DataColumn::kData);
    QCOMPARE(mismatches(readChunks(req.output_path, Product::I, DataColumn::kModelData), in_i,
                        first, matched),
             0);
    QCOMPARE(matched, 3 * 3 + 2 * 2);  // rows 0 2 4 on 8 channels, rows 6 10 on 4

    VisibilitySelection f1;
    f1.field_ids = {1};
    ModelWriteRequest xx;
    xx.input_path = req.output_path;
    xx.in_place = true;
    xx.product = Product::XX;
    xx.blocks = modelFor(readChunks(ms_, Product::XX, DataColumn::kData, f1), 0);
    writeModelColumn(xx);

    const Covered second = [&](std::uint64_t row, std::size_t c) {
      return first(row, c) || !field0(row);
    };
    QCOMPARE(mismatches(readChunks(req.output_path, Product::XX, DataColumn::kModelData),
                        readChunks(ms_, Product::XX, DataColumn::kData), second, matched),
             0);
    QCOMPARE(matched, 13 + 3 * 8 - 8 + 2 * 4 - 1);  // minus FLAG_ROW 5 and row 9's flags
    QCOMPARE(mismatches(readChunks(req.output_path, Product::YY, DataColumn::kModelData),
                        readChunks(ms_, Product::YY, DataColumn::kData), first, matched),
             0);
    QCOMPARE(matched, 13);
  }

 private:
  std::string path(const char* name) const { return (dir_.path() + "/" + name).toStdString(); }

  QTemporaryDir dir_;
  std::string ms_;
};

QTEST_GUILESS_MAIN(TestMsModelWriter)
#include "test_ms_model_writer.moc"
