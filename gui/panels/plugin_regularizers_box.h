#pragma once

#include <QGroupBox>
#include <QStringList>
#include <vector>

#include "core/project/project_settings.h"

class QDoubleSpinBox;
class QFormLayout;
class QLineEdit;

namespace apertura::plugin {
class PluginRegistry;
}

namespace apertura::gui {

class PlaneListEdit;

// The regularizers of the loaded plugins in the run settings (and the names of their optimizers):
// per term a λ field (0: off) and one spin box per declared parameter (range, default and
// description from the plugin). Plugin discovery runs off the GUI thread; until it is done (or when
// no plugin provides a term the project names) the project's plugin terms pass through unchanged,
// so nothing is dropped.
class PluginRegularizersBox : public QGroupBox {
  Q_OBJECT

 public:
  explicit PluginRegularizersBox(QWidget* parent = nullptr);

  // Appends the plugin terms with a non-zero λ (and, in a cube, their planes) to s.regularizers.
  // False (with `error` set) when a λ field is not a number or a planes field does not parse.
  bool apply(apertura::project::ProjectSettings& s, QString* error) const;
  // Shows the plugin terms of `s` (those not built in).
  void load(const apertura::project::ProjectSettings& s);
  // Cube mode: the planes fields apply; outside a cube they are disabled and ignored.
  void setCube(bool cube);
  // Number of plugin terms shown (0 until discovery finished).
  int termCount() const { return int(terms_.size()); }
  // Methods of the loaded plugin optimizers (empty until ready()).
  const QStringList& optimizerNames() const { return optimizers_; }

 signals:
  void changed();
  void ready();

 private:
  struct Term {
    std::string type;
    QLineEdit* lambda = nullptr;
    PlaneListEdit* planes = nullptr;  // regularizers[i].planes
    std::vector<std::pair<std::string, QDoubleSpinBox*>> parameters;
  };
  void build(const apertura::plugin::PluginRegistry& registry);
  void show(const std::vector<apertura::project::RegularizerSettings>& terms);

  QFormLayout* form_;
  bool built_ = false;
  bool cube_ = false;
  std::vector<Term> terms_;
  QStringList optimizers_;
  // Plugin terms of the last project loaded, kept for those no widget represents.
  std::vector<apertura::project::RegularizerSettings> loaded_;
};

}  // namespace apertura::gui
