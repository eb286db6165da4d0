// The run settings' "planes" fields (regularizers[i].planes, issue #13): beside each built-in
// term's λ and each across-plane term's λ, a list such as "0-3, 7" (empty: every plane) that is
// shown from a project, written back into it, refused with the field named when it does not
// parse, and kept when the panel's edits are merged into the loaded project.
#include <QComboBox>
#include <QLineEdit>
#include <QtTest>

#include "gui/controller/panel_settings_merge.h"
#include "gui/panels/run_settings_panel.h"
#include "gui/panels/spectral_settings_box.h"
#include "tests/gui/gui_test_support.h"

using namespace apertura;
using namespace apertura::gui;

namespace {

project::ProjectSettings cubeProject() {
  project::ProjectSettings p;
  p.imaging.spectral_mode = apertura::project::SpectralMode::Cube;
  p.regularizers = {{"l1", 1e-3, true, {{"epsilon", 1e-4}}, {7, 0, 1, 2, 3}},
                    {"tsv", 2e-3, false, {}},
                    {"tv-spectral", 5e-3, true, {{"epsilon", 1e-6}}, {2, 3, 4}}};
  return p;
}

const project::RegularizerSettings* find(const project::ProjectSettings& s,
                                         const std::string& type) {
  for (const auto& r : s.regularizers) {
    if (r.type == type)
      return &r;
  }
  return nullptr;
}

}  // namespace

class TestRegularizerPlanesPanel : public QObject {
  Q_OBJECT
 private slots:
  void planesShownAndWrittenBack() {
    RunSettingsPanel panel;
    auto* l1 = panel.findChild<QLineEdit*>("planes-l1");
    auto* tsv = panel.findChild<QLineEdit*>("planes-tsv");
    auto* box = panel.findChild<SpectralSettingsBox*>();
    QVERIFY(l1 && tsv && box && box->planesEdit("tv-spectral"));
    const project::ProjectSettings p = cubeProject();
    panel.setSettings(p);
    QCOMPARE(l1->text(), QString("0-3, 7"));
    QCOMPARE(tsv->text(), QString());  // every plane
    QCOMPARE(box->planesEdit("tv-spectral")->text(), QString("2-4"));
    QCOMPARE(box->planesEdit("tsv-spectral")->text(), QString());

    auto s = panel.settings(p);
    QVERIFY2(s, qPrintable(panel.validationMessage()));
    QCOMPARE(find(*s, "l1")->planes, (std::vector<int>{0, 1, 2, 3, 7}));
    QVERIFY(find(*s, "tsv")->planes.empty());
    QCOMPARE(find(*s, "tv-spectral")->planes, (std::vector<int>{2, 3, 4}));
    QVERIFY(find(*s, "tv-spectral")->use_mask);  // the rest of the term passes through

    tsv->setText("1, 4-5");
    box->planesEdit("tv-spectral")->setText("0, 2");
    s = panel.settings(p);
    QVERIFY2(s, qPrintable(panel.validationMessage()));
    QCOMPARE(find(*s, "tsv")->planes, (std::vector<int>{1, 4, 5}));
    QCOMPARE(find(*s, "tv-spectral")->planes, (std::vector<int>{0, 2}));
    const QString shot = testing::artifact("regularizer-planes-panel.png");
    if (!shot.isEmpty()) {
      panel.resize(420, 1000);
      QVERIFY(panel.grab().save(shot));
    }
  }

  void badListsAreRefusedByName() {
    RunSettingsPanel panel;
    panel.setSettings(cubeProject());
    auto* l1 = panel.findChild<QLineEdit*>("planes-l1");
    l1->setText("0-3, x");
    QVERIFY(!panel.settings(cubeProject()));
    QString m = panel.validationMessage();
    QVERIFY2(m.contains("l1 planes") && m.contains("'x'"), qPrintable(m));
    QVERIFY(l1->toolTip().contains("'x'"));
    l1->setText("0-3");
    QVERIFY(panel.settings(cubeProject()));
    QVERIFY(!l1->toolTip().contains("'x'"));

    auto* box = panel.findChild<SpectralSettingsBox*>();
    box->planesEdit("tv-spectral")->setText("4-2");
    QVERIFY(!panel.settings(cubeProject()));
    m = panel.validationMessage();
    QVERIFY2(m.contains("tv-spectral planes") && m.contains("backwards"), qPrintable(m));
    box->planesEdit("tv-spectral")->setText("");
  }

  // A negative λ is refused at its field, named as the form names it.
  void negativeLambdaIsNamedByItsLabel() {
    RunSettingsPanel panel;
    panel.setSettings(cubeProject());
    auto* l1 = panel.findChild<QLineEdit*>("lambda-l1");
    QVERIFY(l1);
    l1->setText("-1");
    QVERIFY(!panel.settings(cubeProject()));
    const QString m = panel.validationMessage();
    QCOMPARE(m, QString("Invalid: L1 λ must be a number ≥ 0, or auto"));
    QVERIFY(l1->toolTip().contains("L1 λ"));
    QVERIFY(!l1->styleSheet().isEmpty());
    const QString shot = apertura::testing::artifact("negative-lambda.png");
    if (!shot.isEmpty()) {
      panel.resize(420, 900);
      QVERIFY(panel.grab().save(shot));
    }
    l1->setText("0.5");
    QVERIFY(panel.settings(cubeProject()));
    QVERIFY(l1->styleSheet().isEmpty());
    QVERIFY(l1->toolTip().startsWith("Weight of the term"));  // the error is gone with it
  }

  void mfsDisablesAndIgnoresPlaneLists() {
    RunSettingsPanel panel;
    panel.setSettings(cubeProject());
    auto* l1 = panel.findChild<QLineEdit*>("planes-l1");
    auto* box = panel.findChild<SpectralSettingsBox*>();
    QLineEdit* spectral = box->planesEdit("tv-spectral");
    QVERIFY(l1->isEnabled() && spectral->isEnabled());
    l1->setText("0-3, x");  // would be refused in a cube
    box->modeBox()->setCurrentIndex(box->modeBox()->findData("mfs"));
    QVERIFY(!l1->isEnabled() && !spectral->isEnabled());
    // An MFS image has one plane: the lists are ignored, not sent to validation (which refuses
    // plane lists other than "0" outside a cube).
    auto s = panel.settings(cubeProject());
    QVERIFY2(s, qPrintable(panel.validationMessage()));
    QCOMPARE(s->imaging.spectral_mode, apertura::project::SpectralMode::Mfs);
    for (const auto& r : s->regularizers)
      QVERIFY2(r.planes.empty(), r.type.c_str());
    QCOMPARE(l1->text(), QString("0-3, x"));  // kept for a switch back to cube
    box->modeBox()->setCurrentIndex(box->modeBox()->findData("cube"));
    QVERIFY(l1->isEnabled() && spectral->isEnabled());
    QVERIFY(!panel.settings(cubeProject()));
    l1->setText("0-3");
    s = panel.settings(cubeProject());
    QVERIFY2(s, qPrintable(panel.validationMessage()));
    QCOMPARE(find(*s, "l1")->planes, (std::vector<int>{0, 1, 2, 3}));
    QCOMPARE(find(*s, "tv-spectral")->planes, (std::vector<int>{2, 3, 4}));
  }

  // imaging.mfs_spectrum: shown from the project, written back, merged when edited, and
  // disabled in cube mode (a cube's planes hold the spectrum).
  void mfsSpectrumShownAndWrittenBack() {
    RunSettingsPanel panel;
    auto* box = panel.findChild<SpectralSettingsBox*>();
    QComboBox* spectrum = box->mfsSpectrumBox();
    QVERIFY(spectrum && spectrum == panel.findChild<QComboBox*>("mfs-spectrum"));
    project::ProjectSettings p;
    p.imaging.mfs_spectrum = apertura::project::MfsSpectrum::Linear;
    panel.setSettings(p);
    QCOMPARE(spectrum->currentData().toString(), QString("linear"));
    QVERIFY(spectrum->isEnabled());
    const auto shown = panel.settings(p);
    QVERIFY2(shown, qPrintable(panel.validationMessage()));
    QCOMPARE(shown->imaging.mfs_spectrum, apertura::project::MfsSpectrum::Linear);
    spectrum->setCurrentIndex(spectrum->findData("auto"));
    const auto edited = panel.settings(p);
    QVERIFY(edited);
    QCOMPARE(mergePanelEdits(p, *shown, *edited).imaging.mfs_spectrum,
             apertura::project::MfsSpectrum::Auto);
    QCOMPARE(mergePanelEdits(p, *shown, *shown).imaging.mfs_spectrum,
             apertura::project::MfsSpectrum::Linear);
    box->modeBox()->setCurrentIndex(box->modeBox()->findData("cube"));
    QVERIFY(!spectrum->isEnabled());
    panel.setSettings(project::defaultProject());
    QCOMPARE(spectrum->currentData().toString(), QString("auto"));  // a new project's
  }

  void mergeKeepsEditedPlanes() {
    RunSettingsPanel panel;
    const project::ProjectSettings base = cubeProject();
    panel.setSettings(base);
    const auto shown = panel.settings(base);
    QVERIFY(shown);
    panel.findChild<QLineEdit*>("planes-l1")->setText("5");
    const auto edited = panel.settings(base);
    QVERIFY(edited);
    const project::ProjectSettings merged = mergePanelEdits(base, *shown, *edited);
    const auto* l1 = find(merged, "l1");
    QVERIFY(l1);
    QCOMPARE(l1->planes, std::vector<int>{5});
    // The options the panel does not show stay as loaded.
    QVERIFY(l1->use_mask);
    QCOMPARE(l1->parameters.at("epsilon"), 1e-4);
    QCOMPARE(find(merged, "tv-spectral")->planes, (std::vector<int>{2, 3, 4}));
    // Nothing edited: the loaded list, in its own order, is kept.
    const project::ProjectSettings same = mergePanelEdits(base, *shown, *shown);
    QCOMPARE(find(same, "l1")->planes, (std::vector<int>{7, 0, 1, 2, 3}));
  }
};

QTEST_MAIN(TestRegularizerPlanesPanel)
#include "test_regularizer_planes_panel.moc"
