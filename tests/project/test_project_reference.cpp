// The project file's reference is generated from the field tables: it lists every key the writer
// writes (so a field cannot be added without appearing there), with the default the settings
// structs hold, and docs/project-file.md carries exactly the generated text.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>
#include <set>

#include "core/project/project_file.h"
#include "core/project/project_reference.h"

using namespace apertura::project;

namespace {

const char* kBegin = "<!-- reference: generated from core/project/settings_fields.h -->\n";
const char* kEnd = "<!-- end of reference -->";

// Every key the writer produces, named as the reference names them.
std::set<std::string> writtenKeys() {
  ProjectSettings s;
  s.regularizers.push_back({"l1", 1.0, false, {}, {0}});
  s.mask.push_back({"rectangle", false, {0, 0, 1, 1}});
  s.views["model"] = ViewSettings{};
  const QJsonObject j =
      QJsonDocument::fromJson(QByteArray::fromStdString(projectToJson(s, ""))).object();
  std::set<std::string> keys;
  const auto add = [&](const std::string& prefix, const QJsonObject& o) {
    for (auto it = o.begin(); it != o.end(); ++it)
      keys.insert(prefix + "." + it.key().toStdString());
  };
  for (const char* section :
       {"data", "weighting", "imaging", "regularization", "optimizer", "output"})
    add(section, j.value(section).toObject());
  add("regularizers[]", j.value("regularizers").toArray().at(0).toObject());
  add("mask[]", j.value("mask").toArray().at(0).toObject());
  add("views.NAME", j.value("views").toObject().value("model").toObject());
  return keys;
}

}  // namespace

class TestProjectReference : public QObject {
  Q_OBJECT
 private slots:
  void listsEveryWrittenKeyOnce() {
    std::set<std::string> listed;
    for (const ReferenceEntry& e : projectReferenceEntries()) {
      QVERIFY2(listed.insert(e.key).second, e.key.c_str());
      QVERIFY2(!e.help.empty(), e.key.c_str());
      QVERIFY2(!e.accepted.empty(), e.key.c_str());
    }
    const std::set<std::string> written = writtenKeys();
    for (const auto& k : written)
      QVERIFY2(listed.count(k), ("not in the reference: " + k).c_str());
    for (const auto& k : listed)
      QVERIFY2(written.count(k), ("in the reference but never written: " + k).c_str());
  }

  void defaultsAndRangesComeFromTheSettings() {
    std::map<std::string, ReferenceEntry> by_key;
    for (const ReferenceEntry& e : projectReferenceEntries())
      by_key[e.key] = e;
    QCOMPARE(by_key.at("imaging.nx").fallback, std::to_string(ImagingSettings{}.nx));
    QCOMPARE(by_key.at("imaging.nx").accepted, std::string("integer [8, 65536], even"));
    QCOMPARE(by_key.at("weighting.scheme").fallback,
             "\"" + choiceName(WeightingSettings{}.scheme) + "\"");
    QCOMPARE(by_key.at("weighting.scheme").accepted,
             std::string("natural, uniform, briggs, radial"));
    QCOMPARE(by_key.at("imaging.cell_arcsec").fallback, std::string("\"auto\""));
    QCOMPARE(by_key.at("imaging.cell_arcsec").unit, std::string("arcsec"));
    QVERIFY(by_key.at("optimizer.method").accepted.find("lbfgs, cg-fr") == 0);
    QVERIFY(by_key.at("regularizers[].type").accepted.find("tsv") != std::string::npos);
  }

  // To regenerate the block: copy the file this test writes (its path is in the failure message)
  // into docs/project-file.md.
  void documentationIsTheGeneratedReference() {
    QFile doc(APERTURA_SOURCE_DIR "/docs/project-file.md");
    QVERIFY(doc.open(QIODevice::ReadOnly));
    const std::string text = doc.readAll().toStdString();
    const std::string expected = projectReferenceMarkdown();
    const QString generated = QDir::temp().filePath("apertura-project-file-reference.md");
    QFile out(generated);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QByteArray::fromStdString(kBegin + expected + kEnd));
    const auto begin = text.find(kBegin);
    const auto end = text.find(kEnd);
    QVERIFY2(begin != std::string::npos && end != std::string::npos, "markers missing");
    const std::string block =
        text.substr(begin + std::string(kBegin).size(), end - begin - std::string(kBegin).size());
    QVERIFY2(block == expected,
             qPrintable("docs/project-file.md differs from the field tables; the generated text "
                        "is in " +
                        generated));
  }
};

QTEST_GUILESS_MAIN(TestProjectReference)
#include "test_project_reference.moc"
