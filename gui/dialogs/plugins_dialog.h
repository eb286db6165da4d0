#pragma once

#include <QDialog>

class QLabel;
class QTreeWidget;

namespace apertura::plugin {
class PluginRegistry;
}

namespace apertura::gui {

// Help > Plugins: the plugin search path, every loaded plugin with its regularizers (and their
// parameters: default, range, description), optimizers and readers, and the libraries that were
// refused with the reason. Discovery (dlopen of every library found) runs off the GUI thread.
class PluginsDialog : public QDialog {
  Q_OBJECT

 public:
  explicit PluginsDialog(QWidget* parent = nullptr);

  // For tests: the tree once it is filled (empty until ready() is emitted).
  QTreeWidget* tree() const { return tree_; }

 signals:
  void ready();

 private:
  void fill(const apertura::plugin::PluginRegistry& registry);

  QLabel* path_;
  QTreeWidget* tree_;
};

}  // namespace apertura::gui
