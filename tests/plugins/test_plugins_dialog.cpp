// Help > Plugins: lists the example plugins, their terms and parameters, and the refused
// libraries with their reasons (APERTURA_PLUGIN_PATH holds the build tree's plugins and the
// directory of broken ones).
#include <QSignalSpy>
#include <QTreeWidget>
#include <QtTest>
#include <functional>

#include "gui/dialogs/plugins_dialog.h"

using apertura::gui::PluginsDialog;

namespace {

// Every row of the tree as "name | details", depth first.
QStringList rows(const QTreeWidget* tree) {
  QStringList out;
  std::function<void(QTreeWidgetItem*)> walk = [&](QTreeWidgetItem* it) {
    out << it->text(0) + " | " + it->text(1);
    for (int i = 0; i < it->childCount(); ++i)
      walk(it->child(i));
  };
  for (int i = 0; i < tree->topLevelItemCount(); ++i)
    walk(tree->topLevelItem(i));
  return out;
}

}  // namespace

class TestPluginsDialog : public QObject {
  Q_OBJECT
 private slots:
  void listsPluginsTermsAndRefusals() {
    PluginsDialog dialog;
    QSignalSpy ready(&dialog, &PluginsDialog::ready);
    dialog.show();
    QVERIFY(ready.wait(10000));
    const QString all = rows(dialog.tree()).join('\n');
    QVERIFY2(all.contains("Loaded ("), qPrintable(all));
    QVERIFY(all.contains("wavelet 1.0.0"));
    QVERIFY(all.contains("regularizer wavelet | Starlet"));
    QVERIFY(all.contains("scales | default 4, range [1, 10]"));
    QVERIFY(all.contains("reader CSV"));
    QVERIFY(all.contains("Refused (2)"));
    QVERIFY(all.contains("plugin interface version 99, Apertura supports 2"));
    QVERIFY(all.contains("not an Apertura plugin (no symbol apertura_plugin_entry)"));
    const QByteArray artifacts = qgetenv("APERTURA_TEST_ARTIFACTS");
    if (!artifacts.isEmpty())
      dialog.grab().save(QString::fromUtf8(artifacts) + "/plugins-dialog.png");
  }
};

QTEST_MAIN(TestPluginsDialog)
#include "test_plugins_dialog.moc"
