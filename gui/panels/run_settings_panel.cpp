#include "gui/panels/run_settings_panel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>

#include "core/engine/memory_estimate.h"
#include "core/engine/process_resources.h"
#include "core/project/project_file.h"
#include "core/util/input_error.h"
#include "gui/panels/angle_edit.h"
#include "gui/panels/backend_choices.h"
#include "gui/panels/choice_combo.h"
#include "gui/panels/lambda_text.h"
#include "gui/panels/memory_estimate_text.h"
#include "gui/panels/plane_list_edit.h"
#include "gui/panels/plugin_regularizers_box.h"
#include "gui/panels/spectral_settings_box.h"

namespace apertura::gui {
namespace {

QString lambdaToolTip() {
  return QObject::tr(
      "Weight of the term: auto (chosen by the project's regularization method, by default "
      "cross-validation: the λ whose fits best predict held-out visibilities), a number (with the "
      "normalised objective, dimensionless: for L1 a threshold in units of the image noise, e.g. "
      "3), or 0 to switch the term off");
}

QLineEdit* lambdaEdit(const QString& value) {
  auto* e = new QLineEdit(value);
  e->setToolTip(lambdaToolTip());
  return e;
}

// Finds the project's regularizer of `type`, or 0 when it is absent.
std::optional<double> lambdaOf(const project::ProjectSettings& s, const std::string& type) {
  for (const auto& r : s.regularizers) {
    if (r.type == type)
      return r.lambda;
  }
  return 0.0;
}

// The planes of the project's regularizer of `type` (empty: every plane, or absent).
std::vector<int> planesOf(const project::ProjectSettings& s, const std::string& type) {
  for (const auto& r : s.regularizers) {
    if (r.type == type)
      return r.planes;
  }
  return {};
}

// A λ field and, beside it, the planes the term acts on.
// Replaces the combo's items, keeping `keep` selected (appending it, enabled, when the list lacks
// it: a project from a machine with another GPU keeps its setting, and the run says what is
// wrong). Signals are blocked: the selection does not change through this.
void fillBackends(QComboBox* combo, const QVector<BackendChoice>& choices, const QString& keep) {
  const QSignalBlocker block(combo);
  combo->clear();
  for (const BackendChoice& c : choices) {
    combo->addItem(c.label, c.value);
    if (!c.enabled) {
      auto* model = qobject_cast<QStandardItemModel*>(combo->model());
      if (model)
        model->item(combo->count() - 1)->setEnabled(false);
    }
  }
  int index = combo->findData(keep);
  if (index < 0 && keep.startsWith("cuda:")) {
    combo->addItem(QObject::tr("GPU %1 (not found on this machine)").arg(keep.mid(5)), keep);
    index = combo->count() - 1;
  }
  combo->setCurrentIndex(std::max(0, index));
}

}  // namespace

RunSettingsPanel::RunSettingsPanel(QWidget* parent)
    : QWidget(parent),
      size_(new QSpinBox),
      cell_(new AngleEdit(tr("Cell"))),
      weighting_(new QComboBox),
      robust_(new QDoubleSpinBox),
      taper_(new AngleEdit(tr("Taper"))),
      lambda_l1_(lambdaEdit("1")),
      lambda_tsv_(lambdaEdit("0")),
      lambda_tv_(lambdaEdit("0")),
      lambda_entropy_(lambdaEdit("0")),
      method_(new QComboBox),
      iterations_(new QSpinBox),
      history_(new QSpinBox),
      in_memory_(new QSpinBox),
      positivity_(new QComboBox),
      scaling_(new QComboBox),
      precision_(new QComboBox),
      accumulation_(new QComboBox),
      operator_(new QComboBox),
      data_mode_(new QComboBox),
      backend_(new QComboBox),
      memory_(new QLabel),
      status_(new QLabel) {
  size_->setRange(32, 16384);
  size_->setSingleStep(32);
  size_->setValue(256);
  size_->setSuffix(" px");
  cell_->setObjectName("cell");
  addChoices<imaging::WeightingScheme>(weighting_);
  selectChoice(weighting_, project::WeightingSettings{}.scheme);
  robust_->setRange(-2.0, 2.0);
  robust_->setSingleStep(0.5);
  robust_->setValue(0.5);
  taper_->setObjectName("taper");
  taper_->setPlaceholderText(tr("none"));  // weighting.taper_arcsec auto: no taper
  taper_->setToolTip(
      tr("Gaussian uv taper, FWHM on the sky: empty for none, or an angle with a "
         "unit (0.5 arcsec, 20 mas, 30 µas)"));
  addDescribedChoices<project::OptimizerMethod>(method_);
  iterations_->setRange(0, 100000);
  iterations_->setValue(100);
  history_->setObjectName("lbfgs-history");
  history_->setRange(1, 1000);
  history_->setValue(10);
  history_->setToolTip(
      tr("L-BFGS correction pairs: more can converge in fewer iterations; each "
         "pair is two image-sized vectors"));
  in_memory_->setObjectName("lbfgs-pairs-in-ram");
  in_memory_->setRange(0, history_->value());
  in_memory_->setSpecialValueText(tr("all"));
  in_memory_->setToolTip(
      tr("L-BFGS pairs kept in RAM; the older ones spill to a scratch file "
         "(same result, less RAM, more time per iteration)"));
  addDescribedChoices<project::Positivity>(positivity_);
  selectChoice(positivity_, project::OptimizerSettings{}.positivity);
  addChoices<project::ObjectiveScaling>(scaling_);
  selectChoice(scaling_, project::RegularizationSettings{}.scaling);
  scaling_->setToolTip(
      tr("normalised: λ is dimensionless (L1: a threshold in units of the image noise; 1 to 3 "
         "suits most data). none: λ multiplies terms beside χ² = Σ w |V_model − V|², as in "
         "projects written before schema 2"));
  precision_->setObjectName("precision");
  addChoices<project::Precision>(precision_);
  selectChoice(precision_, project::ImagingSettings{}.precision);
  accumulation_->setObjectName("grid-accumulation");
  addChoices<project::Precision>(accumulation_);
  selectChoice(accumulation_, project::ImagingSettings{}.grid_accumulation);
  accumulation_->setToolTip(
      tr("Float precision: the grid the chunks' residuals are summed into. Double makes the "
         "images independent of the chunk size and of the number of MPI processes; float "
         "saves half that grid"));
  operator_->setObjectName("operator");
  addChoices<project::OperatorMode>(operator_);
  selectChoice(operator_, project::defaultProject().imaging.data_operator);
  operator_->setToolTip(
      tr("How the optimizer evaluates χ²: visibilities, a pass over every sample per "
         "evaluation; psf, a convolution with the PSF (two FFTs of an image twice the size, "
         "whatever the number of visibilities; no w-term, MFS only); auto uses psf wherever it "
         "applies and fits the memory budget"));
  // Item data are the project's data.mode values.
  data_mode_->addItem(tr("auto (by memory estimate)"), "auto");
  data_mode_->addItem(tr("in memory"), "resident");
  data_mode_->addItem(tr("stream from disk"), "streaming");
  data_mode_->setObjectName("data-mode");
  data_mode_->setToolTip(
      tr("Keep every visibility in RAM, or read them again from disk on every pass (same "
         "images, bounded memory, slower); auto streams when the estimate exceeds the budget"));
  backend_->setObjectName("backend");
  backend_->setToolTip(
      tr("Where gridding, FFTs and degridding run: Auto uses the GPU when there is one and "
         "the CPU otherwise; the status bar shows what a run used"));
  backend_choices_ = pendingBackendChoices();
  fillBackends(backend_, backend_choices_, "auto");
  memory_->setWordWrap(true);
  status_->setWordWrap(true);

  auto* imaging = new QFormLayout;
  imaging->addRow(tr("Image size"), size_);
  imaging->addRow(tr("Cell"), cell_);
  imaging->addRow(tr("Weighting"), weighting_);
  imaging->addRow(tr("Robust"), robust_);
  imaging->addRow(tr("Taper"), taper_);
  imaging->addRow(tr("Precision"), precision_);
  imaging->addRow(tr("Grid sums"), accumulation_);
  imaging->addRow(tr("χ² operator"), operator_);
  imaging->addRow(tr("Visibilities"), data_mode_);
  imaging->addRow(tr("Backend"), backend_);
  auto* regs = new QFormLayout;
  regs->addRow(tr("λ scale"), scaling_);
  const std::pair<QString, QLineEdit*> rows[] = {{tr("L1 λ"), lambda_l1_},
                                                 {tr("TSV λ"), lambda_tsv_},
                                                 {tr("TV λ"), lambda_tv_},
                                                 {tr("Entropy λ"), lambda_entropy_}};
  const char* const row_types[] = {"l1", "tsv", "tv", "entropy"};
  for (std::size_t i = 0; i < 4; ++i) {
    auto* planes = new PlaneListEdit(QString(row_types[i]) + " planes");
    planes->setObjectName(QString("planes-") + row_types[i]);
    rows[i].second->setObjectName(QString("lambda-") + row_types[i]);  // found by tests
    plane_edits_[row_types[i]] = planes;
    regs->addRow(rows[i].first, lambdaWithPlanes(rows[i].second, planes));
    connect(planes, &QLineEdit::textChanged, this, &RunSettingsPanel::refresh);
  }
  auto* opt = new QFormLayout;
  opt->addRow(tr("Method"), method_);
  opt->addRow(tr("Iterations"), iterations_);
  opt->addRow(tr("History pairs"), history_);
  opt->addRow(tr("Pairs in RAM"), in_memory_);
  opt->addRow(tr("Positivity"), positivity_);

  auto* layout = new QVBoxLayout(this);
  for (auto [title, form] : {std::pair{tr("Imaging"), imaging}, std::pair{tr("Regularizers"), regs},
                             std::pair{tr("Optimizer"), opt}}) {
    auto* box = new QGroupBox(title);
    box->setLayout(form);
    layout->addWidget(box);
  }
  plugin_regs_ = new PluginRegularizersBox;
  layout->insertWidget(2, plugin_regs_);  // after the built-in regularizers
  connect(plugin_regs_, &PluginRegularizersBox::changed, this, &RunSettingsPanel::refresh);
  spectral_ = new SpectralSettingsBox;  // MFS or cube, and the across-plane regularizers
  layout->insertWidget(1, spectral_);   // after Imaging
  connect(spectral_, &SpectralSettingsBox::changed, this, &RunSettingsPanel::refresh);
  connect(plugin_regs_, &PluginRegularizersBox::ready, this, [this] {
    for (const QString& m : plugin_regs_->optimizerNames()) {
      if (method_->findText(m) < 0)
        method_->addItem(m);
    }
  });
  layout->addWidget(memory_);
  layout->addWidget(status_);
  layout->addStretch(1);
  // A combo box is as wide as its longest item by default, which made the dock scroll
  // sideways at 1400 px; the full text is in the open list and in the tooltips.
  for (QComboBox* c : findChildren<QComboBox*>()) {
    c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    c->setMinimumContentsLength(10);
  }

  // Fewer pairs than kept in RAM: the spin box clamps its value to the history.
  connect(history_, qOverload<int>(&QSpinBox::valueChanged), in_memory_, &QSpinBox::setMaximum);
  for (QSpinBox* s : {size_, iterations_, history_, in_memory_}) {
    connect(s, qOverload<int>(&QSpinBox::valueChanged), this, &RunSettingsPanel::refresh);
  }
  connect(robust_, qOverload<double>(&QDoubleSpinBox::valueChanged), this,
          &RunSettingsPanel::refresh);
  for (AngleEdit* e : {cell_, taper_})
    connect(e, &QLineEdit::textChanged, this, &RunSettingsPanel::refresh);
  for (QComboBox* c : {weighting_, method_, positivity_, scaling_, precision_, accumulation_,
                       operator_, data_mode_, backend_}) {
    connect(c, &QComboBox::currentTextChanged, this, &RunSettingsPanel::refresh);
  }
  for (QLineEdit* e : {lambda_l1_, lambda_tsv_, lambda_tv_, lambda_entropy_}) {
    connect(e, &QLineEdit::textChanged, this, &RunSettingsPanel::refresh);
  }
  refresh();

  // The device query loads the CUDA module and asks the driver: off the GUI thread, once.
  auto* watcher = new QFutureWatcher<imaging::GpuInventory>(this);
  connect(watcher, &QFutureWatcher<imaging::GpuInventory>::finished, this, [this, watcher] {
    setGpuInventory(watcher->result());
    watcher->deleteLater();
  });
  watcher->setFuture(QtConcurrent::run([] { return imaging::queryGpuDevices(); }));
}

void RunSettingsPanel::setGpuInventory(const imaging::GpuInventory& inventory) {
  backend_choices_ = backendChoices(inventory);
  fillBackends(backend_, backend_choices_, backend_->currentData().toString());
  backend_->setToolTip(backend_->toolTip().section("\n", 0, 0) + "\n" +
                       QString::fromStdString(inventory.describe()));
  gpu_listed_ = true;
  emit gpuDevicesReady(!inventory.devices.empty());
}

std::optional<project::ProjectSettings> RunSettingsPanel::settings(
    const project::ProjectSettings& base) const {
  project::ProjectSettings s = base;
  s.imaging.nx = s.imaging.ny = size_->value();
  QString cell_error;
  if (!cell_->angle(s.imaging.cell_arcsec, &cell_error)) {
    status_->setText(tr("Invalid: %1").arg(cell_error));
    return std::nullopt;
  }
  s.imaging.precision = currentChoice(precision_, s.imaging.precision);
  s.imaging.grid_accumulation = currentChoice(accumulation_, s.imaging.grid_accumulation);
  s.imaging.data_operator = currentChoice(operator_, s.imaging.data_operator);
  s.data.mode = project::parseChoice<ReadMode>(data_mode_->currentData().toString().toStdString())
                    .value_or(s.data.mode);
  applyBackendValue(backend_->currentData().toString(), s.imaging.backend, s.imaging.gpu_device);
  s.weighting.scheme = currentChoice(weighting_, s.weighting.scheme);
  s.weighting.robust = robust_->value();
  QString taper_error;
  if (!taper_->angle(s.weighting.taper_arcsec, &taper_error)) {
    status_->setText(tr("Invalid: %1").arg(taper_error));
    return std::nullopt;
  }
  s.optimizer.setMethod(method_->currentText().toStdString());
  s.optimizer.max_iterations = iterations_->value();
  s.optimizer.history = history_->value();
  s.optimizer.in_memory_limit.reset();
  if (in_memory_->value() > 0)
    s.optimizer.in_memory_limit = in_memory_->value();
  s.optimizer.positivity = currentChoice(positivity_, s.optimizer.positivity);
  s.regularization.scaling = currentChoice(scaling_, s.regularization.scaling);
  s.regularizers.clear();
  struct Term {
    const char* type;
    QLineEdit* edit;
    QString label;  // as the form shows it, for messages
  };
  const Term terms[] = {{"l1", lambda_l1_, tr("L1 λ")},
                        {"tsv", lambda_tsv_, tr("TSV λ")},
                        {"tv", lambda_tv_, tr("TV λ")},
                        {"entropy", lambda_entropy_, tr("Entropy λ")}};
  for (const auto& [type, edit, label] : terms) {
    bool ok = false;
    const std::optional<double> lambda = parseLambda(edit->text(), &ok);
    if (!ok) {
      edit->setStyleSheet("background: #ffd6d6");
      edit->setToolTip(tr("'%1' is neither a number nor auto").arg(edit->text()));
      return std::nullopt;
    }
    // Said at the field, in the form's words (validation would name regularizers[i].lambda).
    if (lambda && !(*lambda >= 0.0)) {
      edit->setStyleSheet("background: #ffd6d6");
      edit->setToolTip(tr("%1 must be a number ≥ 0, or auto").arg(label));
      status_->setText(tr("Invalid: %1 must be a number ≥ 0, or auto").arg(label));
      return std::nullopt;
    }
    edit->setStyleSheet(QString());
    edit->setToolTip(lambdaToolTip());
    std::vector<int> planes;
    QString planes_error;
    if (spectral_->isCube() && !plane_edits_.at(type)->planes(planes, &planes_error)) {
      status_->setText(tr("Invalid: %1").arg(planes_error));
      return std::nullopt;
    }
    if (lambda != 0.0)
      s.regularizers.push_back({type, lambda, false, {}, planes});
  }
  QString plugin_error;
  if (!spectral_->apply(s, &plugin_error)) {
    status_->setText(tr("Invalid: %1").arg(plugin_error));
    return std::nullopt;
  }
  if (!plugin_regs_->apply(s, &plugin_error)) {
    status_->setText(tr("Invalid: %1").arg(plugin_error));
    return std::nullopt;
  }
  try {
    project::validateProject(s);
  } catch (const InputError& e) {
    status_->setText(tr("Invalid: %1").arg(QString::fromStdString(e.what())));
    return std::nullopt;
  }
  return s;
}

void RunSettingsPanel::setSettings(const project::ProjectSettings& s) {
  base_ = s;
  size_->setValue(s.imaging.nx);
  cell_->setAngle(s.imaging.cell_arcsec);
  selectChoice(precision_, s.imaging.precision);
  selectChoice(accumulation_, s.imaging.grid_accumulation);
  selectChoice(operator_, s.imaging.data_operator);
  data_mode_->setCurrentIndex(
      std::max(0, data_mode_->findData(QString::fromStdString(project::choiceName(s.data.mode)))));
  fillBackends(backend_, backend_choices_, backendValue(s.imaging.backend, s.imaging.gpu_device));
  selectChoice(weighting_, s.weighting.scheme);
  robust_->setValue(s.weighting.robust);
  taper_->setAngle(s.weighting.taper_arcsec);
  // A plugin's method may not be listed yet (or its plugin is missing: validation says so).
  const QString method = QString::fromStdString(s.optimizer.methodName());
  if (method_->findText(method) < 0)
    method_->addItem(method);
  method_->setCurrentText(method);
  iterations_->setValue(s.optimizer.max_iterations);
  history_->setValue(s.optimizer.history);
  in_memory_->setValue(s.optimizer.in_memory_limit.value_or(0));
  selectChoice(positivity_, s.optimizer.positivity);
  selectChoice(scaling_, s.regularization.scaling);
  lambda_l1_->setText(lambdaText(lambdaOf(s, "l1")));
  lambda_tsv_->setText(lambdaText(lambdaOf(s, "tsv")));
  lambda_tv_->setText(lambdaText(lambdaOf(s, "tv")));
  lambda_entropy_->setText(lambdaText(lambdaOf(s, "entropy")));
  for (const auto& [type, edit] : plane_edits_) {
    const QSignalBlocker block(edit);  // one refresh at the end is enough
    edit->setPlanes(planesOf(s, type));
  }
  spectral_->load(s);
  plugin_regs_->load(s);
  refresh();
}

engine::DataVolume RunSettingsPanel::dataVolume(const project::ProjectSettings& s) const {
  engine::DataVolume volume;
  if (!dataset_)
    return volume;
  const std::size_t corr =
      dataset_->polarizations.empty() ? 1 : dataset_->polarizations.front().correlations.size();
  volume.rows = dataset_->rows;
  volume.samples = dataset_->flag_cells_total / std::max<std::size_t>(1, corr);
  volume.channels_per_row =
      dataset_->spectral_windows.empty() ? 1 : dataset_->spectral_windows.front().num_channels;
  // A cube has planes in every selected window: the estimate counts them.
  volume.spectral_windows = static_cast<int>(
      std::max<std::size_t>(1, s.data.spectral_windows.empty() ? dataset_->spectral_windows.size()
                                                               : s.data.spectral_windows.size()));
  volume.fractional_band = fractionalBandwidth(dataset_->spectral_windows, s.data.spectral_windows);
  return volume;
}

void RunSettingsPanel::setImageSize(int pixels) {
  size_->setValue(pixels);
}

void RunSettingsPanel::setDataMode(ReadMode mode) {
  data_mode_->setCurrentIndex(
      std::max(0, data_mode_->findData(QString::fromStdString(project::choiceName(mode)))));
}

void RunSettingsPanel::setDataset(const DatasetSummary& summary) {
  dataset_ = summary;
  // The cell "auto" stands for: the run's rule (suggestedCellRad), as the Data tab shows it.
  constexpr double kRadToArcsec = 180.0 / M_PI * 3600.0;
  cell_->setAutoAngle(summary.suggested_cell_rad > 0.0
                          ? std::optional<double>(summary.suggested_cell_rad * kRadToArcsec)
                          : std::nullopt);
  refresh();
}

QString RunSettingsPanel::validationMessage() const {
  return status_->text();
}

void RunSettingsPanel::refresh() {
  robust_->setEnabled(currentChoice(weighting_, imaging::WeightingScheme::Natural) ==
                      imaging::WeightingScheme::Briggs);
  accumulation_->setEnabled(currentChoice(precision_, project::Precision::Double) ==
                            project::Precision::Float);
  const bool lbfgs =
      currentChoice(method_, project::OptimizerMethod::Plugin) == project::OptimizerMethod::Lbfgs;
  history_->setEnabled(lbfgs);
  in_memory_->setEnabled(lbfgs);
  // Plane lists pick cube planes: in MFS they are kept but ignored (see SpectralSettingsBox).
  for (const auto& [type, edit] : plane_edits_)
    edit->setEnabled(spectral_->isCube());
  plugin_regs_->setCube(spectral_->isCube());
  status_->clear();
  const auto s = settings(base_);
  if (!s) {
    if (status_->text().isEmpty())
      status_->setText(tr("Invalid: a λ field is not a number"));
    status_->setStyleSheet("color: #b00020");
    memory_->clear();
    emit changed();
    return;
  }
  const engine::DataVolume volume = dataVolume(*s);
  spectral_->setPlaneCount(dataset_ && s->imaging.spectral_mode == project::SpectralMode::Cube
                               ? static_cast<int>(engine::imagePlanes(*s, volume))
                               : 0);
  const engine::MemoryEstimate e =
      engine::estimateMemory(*s, volume, engine::physicalMemoryBytes());
  if (e.fitsBudget()) {
    status_->setStyleSheet(QString());
    status_->setText(tr("Settings valid"));
  } else {
    // Valid, but the run will ask before it starts (MainWindow::launchRun).
    status_->setStyleSheet("color: #a05a00");
    status_->setText(tr("Settings valid, but the run needs about %1, over the memory budget "
                        "of %2: Run will offer what fits")
                         .arg(formatBytes(e.totalBytes()), formatBytes(e.budget_bytes)));
  }
  memory_->setText(tr("Memory estimate: %1").arg(memoryEstimateText(e)));
  memory_->setToolTip(QString::fromStdString(e.describe()));
  emit changed();
}

}  // namespace apertura::gui
