#include "gui/dialogs/plugins_dialog.h"

#include <QDialogButtonBox>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/plugin/plugin_registry.h"

namespace apertura::gui {
namespace {

QString text(const char* s) {
  return s ? QString::fromUtf8(s) : QString();
}

QTreeWidgetItem* item(QTreeWidgetItem* parent, const QString& name, const QString& details) {
  auto* it = new QTreeWidgetItem(parent, {name, details});
  it->setToolTip(1, details);
  return it;
}

}  // namespace

PluginsDialog::PluginsDialog(QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Plugins"));
  setObjectName("plugins-dialog");
  path_ = new QLabel(tr("Looking for plugins…"));
  path_->setWordWrap(true);
  path_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  tree_ = new QTreeWidget;
  tree_->setObjectName("plugins-tree");
  tree_->setColumnCount(2);
  tree_->setHeaderLabels({tr("Name"), tr("Details")});
  tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(path_);
  layout->addWidget(tree_, 1);
  layout->addWidget(buttons);
  resize(820, 480);

  // The first use of the registry loads every library on the search path: not on this thread.
  auto* watcher = new QFutureWatcher<const plugin::PluginRegistry*>(this);
  connect(watcher, &QFutureWatcher<const plugin::PluginRegistry*>::finished, this, [this, watcher] {
    fill(*watcher->result());
    watcher->deleteLater();
    emit ready();
  });
  watcher->setFuture(QtConcurrent::run([] { return &plugin::PluginRegistry::global(); }));
}

void PluginsDialog::fill(const plugin::PluginRegistry& registry) {
  path_->setText(
      tr("Plugins are looked for in APERTURA_PLUGIN_PATH, the user directory and the "
         "installed directory (the first plugin of a name wins)."));
  tree_->clear();
  auto* loaded = new QTreeWidgetItem(tree_, {tr("Loaded (%1)").arg(registry.plugins().size())});
  for (const auto& p : registry.plugins()) {
    const AperturaPluginV2& api = *p.api;
    auto* top = item(loaded, text(api.name) + ' ' + text(api.version),
                     text(api.description) + "  —  " + QString::fromStdString(p.path));
    for (std::size_t i = 0; i < api.num_regularizers; ++i) {
      const AperturaRegularizerV1& r = api.regularizers[i];
      auto* reg = item(top, tr("regularizer %1").arg(text(r.name)),
                       text(r.description) + (r.prox ? tr(" (with prox)") : QString()));
      for (std::size_t k = 0; k < r.num_parameters; ++k) {
        const AperturaParameterV1& q = r.parameters[k];
        item(reg, text(q.name),
             tr("default %1, range [%2, %3]: %4")
                 .arg(q.default_value)
                 .arg(q.min_value)
                 .arg(q.max_value)
                 .arg(text(q.description)));
      }
    }
    for (std::size_t i = 0; i < api.num_optimizers; ++i) {
      const AperturaOptimizerV1& o = api.optimizers[i];
      item(top, tr("optimizer %1").arg(text(o.name)), text(o.description));
    }
    for (std::size_t i = 0; i < api.num_readers; ++i) {
      const AperturaReaderV1& r = api.readers[i];
      item(top, tr("reader %1").arg(text(r.name)),
           text(r.description) + " [" + text(r.file_patterns) + "]");
    }
  }
  auto* refused = new QTreeWidgetItem(tree_, {tr("Refused (%1)").arg(registry.refused().size())});
  for (const auto& r : registry.refused()) {
    // The reason starts with the path, which the tooltip keeps; the row shows the file name.
    QString reason = QString::fromStdString(r.reason);
    const QString prefix = QString::fromStdString(r.path) + ": ";
    if (reason.startsWith(prefix))
      reason = reason.mid(prefix.size());
    auto* it = item(refused, QString::fromStdString(r.path).section('/', -1), reason);
    it->setToolTip(1, QString::fromStdString(r.reason));
    it->setForeground(1, QColor(200, 40, 40));
  }
  auto* dirs = new QTreeWidgetItem(tree_, {tr("Search path")});
  for (const auto& dir : registry.searchPath())
    item(dirs, QString(), QString::fromStdString(dir));
  tree_->expandAll();
}

}  // namespace apertura::gui
