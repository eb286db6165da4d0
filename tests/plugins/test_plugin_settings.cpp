// Plugin regularizers in the run settings panel: their λ and parameters (ranges and defaults from
// the plugin) become project terms, a loaded project fills them in, and a term of a missing plugin
// is kept and reported rather than dropped; in a cube each term has a planes field.
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QtTest>

#include "gui/panels/plugin_regularizers_box.h"
#include "gui/panels/run_settings_panel.h"

using namespace apertura;
using apertura::gui::PluginRegularizersBox;
using apertura::gui::RunSettingsPanel;

namespace {

const project::RegularizerSettings* find(const project::ProjectSettings& s, const char* type) {
  for (const auto& r : s.regularizers) {
    if (r.type == type)
      return &r;
  }
  return nullptr;
}

}  // namespace

class TestPluginSettings : public QObject {
  Q_OBJECT
 private slots:
  void pluginTermsAppearAndRoundTrip() {
    RunSettingsPanel panel;
    auto* box = panel.findChild<PluginRegularizersBox*>();
    QVERIFY(box);
    QSignalSpy ready(box, &PluginRegularizersBox::ready);
    QVERIFY(ready.count() > 0 || ready.wait(10000));
    QCOMPARE(box->termCount(), 1);  // the wavelet plugin's term
    auto* lambda = panel.findChild<QLineEdit*>("lambda-wavelet");
    auto* scales = panel.findChild<QDoubleSpinBox*>("wavelet-scales");
    QVERIFY(lambda && scales);
    QCOMPARE(scales->value(), 4.0);  // the plugin's default and range
    QCOMPARE(scales->maximum(), 10.0);

    // Off (λ 0) by default; on with its parameters once λ is set.
    QVERIFY(!find(*panel.settings({}), "wavelet"));
    lambda->setText("25");
    scales->setValue(3);
    auto s = panel.settings({});
    QVERIFY2(s, qPrintable(panel.validationMessage()));
    const auto* w = find(*s, "wavelet");
    QVERIFY(w);
    QCOMPARE(w->lambda, 25.0);
    QCOMPARE(w->parameters.at("scales"), 3.0);
    QCOMPARE(w->parameters.at("include_coarse"), 0.0);

    // A project's plugin term fills the fields.
    project::ProjectSettings p;
    p.regularizers = {{"l1", 1e-4, false, {}},
                      {"wavelet", 7.0, false, {{"scales", 5.0}, {"include_coarse", 1.0}}}};
    panel.setSettings(p);
    QCOMPARE(lambda->text(), QString("7"));
    QCOMPARE(scales->value(), 5.0);
    s = panel.settings({});
    QVERIFY(s);
    QCOMPARE(find(*s, "wavelet")->parameters.at("include_coarse"), 1.0);
    QVERIFY(find(*s, "l1"));

    // In a cube the term's planes field shows and writes regularizers[i].planes; in MFS it is
    // disabled and ignored.
    auto* planes = panel.findChild<QLineEdit*>("planes-wavelet");
    QVERIFY(planes);
    QVERIFY(!planes->isEnabled());
    project::ProjectSettings cube = p;
    cube.imaging.spectral_mode = apertura::project::SpectralMode::Cube;
    cube.regularizers[1].planes = {0, 2, 3, 4};
    panel.setSettings(cube);
    QVERIFY(planes->isEnabled());
    QCOMPARE(planes->text(), QString("0, 2-4"));
    s = panel.settings(cube);
    QVERIFY2(s, qPrintable(panel.validationMessage()));
    QCOMPARE(find(*s, "wavelet")->planes, (std::vector<int>{0, 2, 3, 4}));
    planes->setText("1-2");
    s = panel.settings(cube);
    QVERIFY2(s, qPrintable(panel.validationMessage()));
    QCOMPARE(find(*s, "wavelet")->planes, (std::vector<int>{1, 2}));
    planes->setText("1-x");
    QVERIFY(!panel.settings(cube));
    QVERIFY2(panel.validationMessage().contains("wavelet planes"),
             qPrintable(panel.validationMessage()));
    panel.setSettings(p);
    QVERIFY(!planes->isEnabled());
    QVERIFY(planes->styleSheet().isEmpty());  // the project's list replaced the marked text
    QVERIFY(find(*panel.settings({}), "wavelet")->planes.empty());
    const QByteArray artifacts = qgetenv("APERTURA_TEST_ARTIFACTS");
    if (!artifacts.isEmpty())
      panel.grab().save(QString::fromUtf8(artifacts) + "/plugin-settings.png");

    // Not a number: invalid, with the field named.
    lambda->setText("lots");
    QVERIFY(!panel.settings({}));
    QVERIFY2(panel.validationMessage().contains("wavelet λ: 'lots' is neither a number nor auto"),
             qPrintable(panel.validationMessage()));

    // A plugin optimizer's method survives a project round trip even before it is listed.
    p.optimizer.setMethod("my-solver");
    panel.setSettings(p);
    QVERIFY(!panel.settings({}));  // no loaded plugin provides it
    QVERIFY2(panel.validationMessage().contains("nor an optimizer of a loaded plugin"),
             qPrintable(panel.validationMessage()));
    p.optimizer.method = apertura::project::OptimizerMethod::Lbfgs;

    // A term of a plugin that is not loaded is kept, and validation says it is missing.
    p.regularizers = {{"curvelet", 2.0, false, {}}};
    panel.setSettings(p);
    QVERIFY(!panel.settings({}));
    QVERIFY2(panel.validationMessage().contains("unknown regularizer 'curvelet'"),
             qPrintable(panel.validationMessage()));
  }
};

QTEST_MAIN(TestPluginSettings)
#include "test_plugin_settings.moc"
