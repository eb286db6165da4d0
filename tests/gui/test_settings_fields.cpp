// Run settings fields (issue #35): the Cell field's angles with units (arcsec, mas, µas) read and
// shown without loss, auto showing the cell the run will use (the Data tab's suggestion), bad
// values refused at the field in words; every optimizer and positivity choice explained in its
// tooltip.
#include <QComboBox>
#include <QLineEdit>
#include <QtTest>
#include <cmath>

#include "core/data/uv_extent.h"
#include "gui/panels/angle_edit.h"
#include "gui/panels/run_settings_panel.h"
#include "tests/gui/gui_test_support.h"

using namespace apertura;
using namespace apertura::gui;

class TestSettingsFields : public QObject {
  Q_OBJECT
 private slots:
  void readsUnits() {
    RunSettingsPanel panel;
    auto* cell = panel.findChild<AngleEdit*>("cell");
    QVERIFY(cell);
    const project::ProjectSettings base;
    const struct {
      const char* text;
      double arcsec;
    } cases[] = {{"2uas", 2e-6},    {"2 µas", 2e-6}, {"2e-6", 2e-6},
                 {"0.5 mas", 5e-4}, {"0.05", 0.05},  {"0.05 arcsec", 0.05}};
    for (const auto& c : cases) {
      cell->setText(QString::fromUtf8(c.text));
      const auto s = panel.settings(base);
      QVERIFY2(s, qPrintable(panel.validationMessage()));
      QVERIFY2(s->imaging.cell_arcsec &&
                   std::abs(*s->imaging.cell_arcsec - c.arcsec) <= 1e-15 * c.arcsec,
               c.text);
    }
    for (const char* automatic : {"", "auto", "AUTO"}) {
      cell->setText(automatic);
      const auto s = panel.settings(base);
      QVERIFY(s && !s->imaging.cell_arcsec);
    }
  }

  // The taper takes the same units; empty is no taper (weighting.taper_arcsec auto).
  void taperTakesUnits() {
    RunSettingsPanel panel;
    auto* taper = panel.findChild<AngleEdit*>("taper");
    QVERIFY(taper);
    QCOMPARE(taper->placeholderText(), QString("none"));
    const project::ProjectSettings base;
    taper->setText("20 mas");
    auto s = panel.settings(base);
    QVERIFY2(s, qPrintable(panel.validationMessage()));
    QCOMPARE(*s->weighting.taper_arcsec, 0.02);
    taper->clear();
    s = panel.settings(base);
    QVERIFY(s && !s->weighting.taper_arcsec);
    taper->setText("-1");
    QVERIFY(!panel.settings(base));
    QCOMPARE(panel.validationMessage(), QString("Invalid: Taper must be an angle > 0, or auto"));
    project::ProjectSettings p;
    p.weighting.taper_arcsec = 3e-5;
    panel.setSettings(p);
    QCOMPARE(taper->text(), QString::fromUtf8("30 µas"));
    QCOMPARE(*panel.settings(p)->weighting.taper_arcsec, 3e-5);
  }

  void showsWhatTheProjectHolds() {
    RunSettingsPanel panel;
    auto* cell = panel.findChild<AngleEdit*>("cell");
    project::ProjectSettings p;
    for (double arcsec : {2e-6, 8.3e-6, 0.0235, 0.05, 1.5}) {
      p.imaging.cell_arcsec = arcsec;
      panel.setSettings(p);
      const auto s = panel.settings(p);
      QVERIFY(s && s->imaging.cell_arcsec);
      QCOMPARE(*s->imaging.cell_arcsec, arcsec);  // not rounded, not "auto"
    }
    p.imaging.cell_arcsec = 2e-6;
    panel.setSettings(p);
    QCOMPARE(cell->text(), QString::fromUtf8("2 µas"));
    p.imaging.cell_arcsec.reset();
    panel.setSettings(p);
    QVERIFY(cell->text().isEmpty());
    QCOMPARE(cell->placeholderText(), QString("auto"));
  }

  // auto shows the cell the run will use: the data set's suggestion (one rule for both).
  void autoShowsTheSuggestion() {
    RunSettingsPanel panel;
    auto* cell = panel.findChild<AngleEdit*>("cell");
    DatasetSummary summary;
    summary.max_baseline_wavelengths = 8e9;  // an EHT-like baseline: a few µas
    summary.suggested_cell_rad = suggestedCellRad(summary.max_baseline_wavelengths);
    panel.setDataset(summary);
    const double arcsec = summary.suggested_cell_rad * 180.0 / M_PI * 3600.0;
    QVERIFY(arcsec > 1e-6 && arcsec < 1e-5);
    QCOMPARE(cell->placeholderText(),
             QString::fromUtf8("auto (%1 µas)").arg(arcsec * 1e6, 0, 'g', 4));
  }

  void refusesBadValuesInWords() {
    RunSettingsPanel panel;
    auto* cell = panel.findChild<AngleEdit*>("cell");
    const project::ProjectSettings base;
    cell->setText("-1 mas");
    QVERIFY(!panel.settings(base));
    QCOMPARE(panel.validationMessage(), QString("Invalid: Cell must be an angle > 0, or auto"));
    QVERIFY(!cell->styleSheet().isEmpty());
    QCOMPARE(cell->toolTip(), QString("Cell must be an angle > 0, or auto"));
    cell->setText("2 furlongs");
    QVERIFY(!panel.settings(base));
    QVERIFY(panel.validationMessage().contains("'2 furlongs' is not an angle"));
    const QString shot = testing::artifact("cell-field-refused.png");
    if (!shot.isEmpty()) {
      panel.resize(420, 700);
      panel.show();
      QVERIFY(QTest::qWaitForWindowExposed(&panel));
      panel.grab().save(shot);
    }
    cell->setText("5 uas");
    QVERIFY(panel.settings(base));
    QVERIFY(cell->styleSheet().isEmpty());  // the mark goes with the error
  }

  // Every listed optimizer and positivity setting says what it does (issue #35 item 10).
  void choicesHaveTooltips() {
    RunSettingsPanel panel;
    int described = 0;
    for (const char* first : {"lbfgs", "projection"}) {
      QComboBox* combo = nullptr;
      for (QComboBox* c : panel.findChildren<QComboBox*>())
        if (c->findText(first) >= 0)
          combo = c;
      QVERIFY2(combo, first);
      for (int i = 0; i < combo->count(); ++i) {
        const QString tip = combo->itemData(i, Qt::ToolTipRole).toString();
        QVERIFY2(tip.size() > 20, qPrintable(combo->itemText(i)));
        ++described;
      }
    }
    QCOMPARE(described, 8 + 4);
    QVERIFY(QString::fromStdString(project::describeChoice(project::OptimizerMethod::Fista))
                .contains("prox"));
  }
};

QTEST_MAIN(TestSettingsFields)
#include "test_settings_fields.moc"
