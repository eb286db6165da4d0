#include "gui/panels/plugin_regularizers_box.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QLabel>
#include <QLineEdit>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>

#include "core/plugin/plugin_registry.h"
#include "gui/panels/lambda_text.h"
#include "gui/panels/plane_list_edit.h"

namespace apertura::gui {

PluginRegularizersBox::PluginRegularizersBox(QWidget* parent)
    : QGroupBox(tr("Plugin regularizers"), parent), form_(new QFormLayout(this)) {
  setObjectName("plugin-regularizers");
  form_->addRow(new QLabel(tr("Looking for plugins…")));
  auto* watcher = new QFutureWatcher<const plugin::PluginRegistry*>(this);
  connect(watcher, &QFutureWatcher<const plugin::PluginRegistry*>::finished, this, [this, watcher] {
    build(*watcher->result());
    watcher->deleteLater();
    emit ready();
  });
  watcher->setFuture(QtConcurrent::run([] { return &plugin::PluginRegistry::global(); }));
}

void PluginRegularizersBox::build(const plugin::PluginRegistry& registry) {
  while (form_->rowCount() > 0)
    form_->removeRow(0);
  for (const auto& p : registry.plugins()) {
    for (std::size_t i = 0; i < p.api->num_optimizers; ++i)
      optimizers_ << QString::fromUtf8(p.api->optimizers[i].name);
    for (std::size_t i = 0; i < p.api->num_regularizers; ++i) {
      const AperturaRegularizerV1& r = p.api->regularizers[i];
      Term term;
      term.type = r.name;
      term.lambda = new QLineEdit("0");
      term.lambda->setObjectName(QString("lambda-%1").arg(r.name));
      term.lambda->setToolTip(tr("%1 (plugin %2). Penalization factor lambda; 0 switches it off")
                                  .arg(QString::fromUtf8(r.description ? r.description : ""),
                                       QString::fromUtf8(p.api->name)));
      connect(term.lambda, &QLineEdit::textChanged, this, &PluginRegularizersBox::changed);
      term.planes = new PlaneListEdit(QString("%1 planes").arg(r.name));
      term.planes->setObjectName(QString("planes-%1").arg(r.name));
      term.planes->setEnabled(cube_);
      connect(term.planes, &QLineEdit::textChanged, this, &PluginRegularizersBox::changed);
      form_->addRow(tr("%1 λ").arg(QString::fromUtf8(r.name)),
                    lambdaWithPlanes(term.lambda, term.planes));
      for (std::size_t k = 0; k < r.num_parameters; ++k) {
        const AperturaParameterV1& q = r.parameters[k];
        auto* spin = new QDoubleSpinBox;
        spin->setObjectName(QString("%1-%2").arg(r.name, q.name));
        spin->setDecimals(
            q.max_value - q.min_value >= 1.0 && q.default_value == std::round(q.default_value) ? 0
                                                                                               : 8);
        spin->setRange(q.min_value, q.max_value);
        spin->setValue(q.default_value);
        spin->setToolTip(QString::fromUtf8(q.description ? q.description : ""));
        connect(spin, qOverload<double>(&QDoubleSpinBox::valueChanged), this,
                &PluginRegularizersBox::changed);
        form_->addRow(QStringLiteral("    ") + QString::fromUtf8(q.name), spin);
        term.parameters.emplace_back(q.name, spin);
      }
      terms_.push_back(std::move(term));
    }
  }
  if (terms_.empty())
    form_->addRow(new QLabel(tr("No plugin provides a regularizer (Help > Plugins…)")));
  built_ = true;
  show(loaded_);
  emit changed();
}

void PluginRegularizersBox::show(const std::vector<project::RegularizerSettings>& terms) {
  for (Term& t : terms_) {
    const auto it =
        std::find_if(terms.begin(), terms.end(), [&](const auto& r) { return r.type == t.type; });
    const QSignalBlocker block(this);
    t.lambda->setText(it == terms.end() ? "0" : lambdaText(it->lambda));
    t.planes->setPlanes(it == terms.end() ? std::vector<int>{} : it->planes);
    for (auto& [name, spin] : t.parameters) {
      if (it != terms.end()) {
        const auto p = it->parameters.find(name);
        if (p != it->parameters.end())
          spin->setValue(p->second);
      }
    }
  }
}

void PluginRegularizersBox::setCube(bool cube) {
  cube_ = cube;
  for (Term& t : terms_)
    t.planes->setEnabled(cube);
}

void PluginRegularizersBox::load(const project::ProjectSettings& s) {
  loaded_.clear();
  for (const auto& r : s.regularizers) {
    if (!plugin::isBuiltinRegularizer(r.type))
      loaded_.push_back(r);
  }
  if (built_)
    show(loaded_);
}

bool PluginRegularizersBox::apply(project::ProjectSettings& s, QString* error) const {
  // Loaded terms that no widget shows (discovery not done, or their plugin is missing: then the
  // project's validation says so) pass through.
  for (const auto& r : loaded_) {
    const bool shown =
        std::any_of(terms_.begin(), terms_.end(), [&](const Term& t) { return t.type == r.type; });
    if (!shown)
      s.regularizers.push_back(r);
  }
  for (const Term& t : terms_) {
    bool ok = false;
    const std::optional<double> lambda = parseLambda(t.lambda->text(), &ok);
    t.lambda->setStyleSheet(ok ? QString() : QStringLiteral("background: #ffd6d6"));
    if (!ok) {
      if (error)
        *error = tr("%1 λ: '%2' is neither a number nor auto")
                     .arg(QString::fromStdString(t.type), t.lambda->text());
      return false;
    }
    if (lambda == 0.0)
      continue;
    project::RegularizerSettings r;
    r.type = t.type;
    r.lambda = lambda;
    const auto loaded = std::find_if(loaded_.begin(), loaded_.end(),
                                     [&](const auto& l) { return l.type == t.type; });
    r.use_mask = loaded != loaded_.end() && loaded->use_mask;
    if (cube_ && !t.planes->planes(r.planes, error))
      return false;
    for (const auto& [name, spin] : t.parameters)
      r.parameters[name] = spin->value();
    s.regularizers.push_back(std::move(r));
  }
  return true;
}

}  // namespace apertura::gui
