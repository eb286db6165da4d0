// The project lifecycle of the main window, state side: what the window shows as the project
// (loaded settings + panel edits + view state), putting a project into the panels and views,
// the modified flag and title, and the last results read back from disk.
#include <QDir>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QStatusBar>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include "core/project/project_file.h"
#include "gui/controller/app_preferences.h"
#include "gui/controller/panel_settings_merge.h"
#include "gui/controller/project_document.h"
#include "gui/controller/results_reader.h"
#include "gui/panels/mask_panel.h"
#include "gui/panels/run_settings_panel.h"
#include "gui/view/image_panel.h"
#include "gui/view/image_toolbar.h"
#include "gui/view/image_view.h"
#include "gui/window/image_tabs.h"
#include "gui/window/main_window.h"
#include "gui/window/project_actions.h"

namespace apertura::gui {

ProjectActions::ProjectActions(MainWindow* window)
    : QObject(window), window_(window), document_(new ProjectDocument(this)) {
  // At start-up the project is a new one (defaults plus the preferences), as File > New makes
  // it: the panel shows it, whatever its widgets were built with.
  RunSettingsPanel* panel = window_->runSettings();
  const project::ProjectSettings fresh = newProjectSettings();
  panel->setSettings(fresh);
  base_ = panel->settings(fresh).value_or(fresh);
  shown_ = base_;
  applying_ = true;
  applyViews(base_);
  applying_ = false;
  document_->reset(QString(), stateKey());

  connect(panel, &RunSettingsPanel::changed, this, &ProjectActions::onEdited);
  ImageTabs* tabs = window_->imageTabs();
  for (const QString& name : tabs->names()) {
    ImagePanel* p = tabs->panel(name);
    connect(p->toolbar(), &ImageToolbar::settingsChanged, this, &ProjectActions::onEdited);
    connect(p->view(), &ImageView::displayChanged, this,
            [this, name] { applyPendingGeometry(name); });
  }
  connect(window_, &MainWindow::datasetLoaded, this, &ProjectActions::onDatasetLoaded);
  connect(document_, &ProjectDocument::changed, this, &ProjectActions::updateTitle);
  window_->installEventFilter(this);
  // The mask panel is built with the docks, after the menus that create this object.
  QTimer::singleShot(0, this, [this] {
    if (MaskPanel* mask = window_->maskPanel())
      connect(mask, &MaskPanel::changed, this, &ProjectActions::onEdited);
  });
  updateTitle();
}

project::ProjectSettings ProjectActions::newProjectSettings() const {
  const AppPreferences prefs = AppPreferences::load();
  project::ProjectSettings s = project::defaultProject();
  s.imaging.threads = prefs.threads;
  s.optimizer.snapshot_every = prefs.snapshot_every;
  return s;
}

std::optional<project::ProjectSettings> ProjectActions::currentProject() const {
  project::ProjectSettings s = base_;
  s.data.path = data_path_;
  const auto edited = window_->runSettings()->settings(s);
  if (!edited)
    return std::nullopt;
  project::ProjectSettings merged = mergePanelEdits(s, shown_, *edited);
  // Views the window does not have (yet) keep what the file said.
  const ImageTabs* tabs = window_->imageTabs();
  for (const QString& name : tabs->names()) {
    project::ViewSettings v = captureView(*tabs->panel(name));
    if (pending_geometry_.contains(name)) {
      // No image since the project was opened: keep the geometry the project had.
      const auto saved = base_.views.find(name.toStdString());
      const project::ViewSettings loaded =
          saved != base_.views.end() ? saved->second : project::ViewSettings{};
      v.zoom = loaded.zoom;
      v.center_x = loaded.center_x;
      v.center_y = loaded.center_y;
    }
    merged.views[name.toStdString()] = v;
  }
  captureMask(merged);
  return merged;
}

void ProjectActions::captureMask(project::ProjectSettings& s) const {
  const MaskPanel* mask = window_->maskPanel();
  if (!mask)
    return;
  s.mask = mask->regions();
  // The box says whether the regions confine the model: unchecked, they are kept (saved) but
  // neither the model nor any term is restricted to them.
  if (!s.mask.empty())
    s.optimizer.mask_support = mask->useMask();
  if (mask->useMask() == shown_use_mask_)
    return;  // per-term use_mask flags as the project had them
  if (mask->useMask()) {
    mask->applyTo(s);
  } else {
    for (auto& r : s.regularizers)
      r.use_mask = false;
  }
}

std::optional<project::ProjectSettings> ProjectActions::settingsForRun(
    const QString& dataset) const {
  auto s = currentProject();
  if (!s)
    return std::nullopt;
  s->data.path = dataset.toStdString();
  s->views.clear();
  if (!document_->path().isEmpty())
    s->output.prefix = resultsPrefix(*s, document_->path()).toStdString();
  else if (!QDir::isAbsolutePath(QString::fromStdString(s->output.prefix)))
    s->output.prefix.clear();  // nowhere to resolve it against
  return s;
}

int ProjectActions::fixAutomaticLambdas(double lambda) {
  auto s = currentProject();
  if (!s)
    return -1;
  int fixed = 0;
  for (auto& r : s->regularizers) {
    if (!r.lambda) {
      r.lambda = lambda;
      ++fixed;
    }
  }
  if (fixed == 0)
    return 0;
  // The loaded project too: mergePanelEdits keeps the terms the panel has no field for from it.
  for (auto& r : base_.regularizers) {
    if (!r.lambda)
      r.lambda = lambda;
  }
  applying_ = true;
  window_->runSettings()->setSettings(*s);
  applying_ = false;
  onEdited();  // one change (modified flag and title), not one per field
  return fixed;
}

std::string ProjectActions::stateKey() const {
  auto s = currentProject();
  if (!s)
    return "(invalid settings)";
  // Zoom and pan are saved but, like in other viewers, do not count as unsaved changes.
  for (auto& [name, view] : s->views) {
    view.zoom.reset();
    view.center_x = view.center_y = 0.0;
  }
  return project::projectToJson(*s, std::string());
}

void ProjectActions::showProject(const project::ProjectSettings& settings, const QString& path) {
  applying_ = true;
  base_ = settings;
  data_path_ = settings.data.path;
  RunSettingsPanel* panel = window_->runSettings();
  panel->setSettings(settings);
  shown_ = panel->settings(settings).value_or(settings);
  applyViews(settings);
  if (MaskPanel* mask = window_->maskPanel()) {
    mask->setRegions(settings.mask);
    // Checked when the regions confine the model (they do unless optimizer.mask_support is off).
    mask->setUseMask(settings.optimizer.mask_support && !settings.mask.empty());
    shown_use_mask_ = mask->useMask();
  }
  applying_ = false;
  document_->reset(path, stateKey());
  updateTitle();
}

void ProjectActions::applyViews(const project::ProjectSettings& settings) {
  const QString default_colormap = AppPreferences::load().default_colormap;
  const ImageTabs* tabs = window_->imageTabs();
  // The views share pan and zoom (ViewLinker), and a view getting an image of a new size refits
  // all of them. So every view re-applies the saved zoom when its first image arrives; views
  // saved as "fit" (they had no image) take the zoom of those that had one.
  std::optional<ViewGeometry> shared;
  for (const auto& [name, view] : settings.views) {
    if (view.zoom && tabs->panel(QString::fromStdString(name)) && !shared)
      shared = geometryOf(view);
  }
  pending_geometry_.clear();
  for (const QString& name : tabs->names()) {
    project::ViewSettings v;
    v.colormap = name == "residual" ? "coolwarm" : default_colormap.toStdString();
    const auto saved = settings.views.find(name.toStdString());
    if (saved != settings.views.end())
      v = saved->second;
    tabs->panel(name)->setDisplaySettings(displayFromView(v));
    pending_geometry_.insert(name, v.zoom || !shared ? geometryOf(v) : *shared);
  }
  for (const QString& name : tabs->names())
    applyPendingGeometry(name);  // at once where the view already shows an image
}

void ProjectActions::applyPendingGeometry(const QString& name) {
  const auto it = pending_geometry_.find(name);
  if (it == pending_geometry_.end())
    return;
  ImagePanel* p = window_->imageTabs()->panel(name);
  const auto image = p->view()->image();
  if (!image || image->empty())
    return;
  const ViewGeometry geometry = *it;
  pending_geometry_.erase(it);
  applyGeometry(*p, geometry);
}

void ProjectActions::clearImages() {
  const ImageTabs* tabs = window_->imageTabs();
  for (const QString& name : tabs->names())
    tabs->panel(name)->setImage(ImageData{});
}

void ProjectActions::restoreResults(const project::ProjectSettings& settings, const QString& path) {
  const int generation = generation_;
  const QString prefix = resultsPrefix(settings, path);
  const QStringList names = window_->imageTabs()->names();
  auto* watcher = new QFutureWatcher<RestoredResults>(this);
  connect(watcher, &QFutureWatcher<RestoredResults>::finished, this, [this, watcher, generation] {
    RestoredResults r = watcher->result();
    watcher->deleteLater();
    if (generation != generation_)
      return;
    for (RestoredImage& image : r.images) {
      if (ImagePanel* p = window_->imageTabs()->panel(image.name)) {
        p->setImage(std::move(image.image));
        p->setCaption(tr("Saved results of this project (read from disk)"));
      }
    }
    if (!r.errors.isEmpty())
      window_->statusBar()->showMessage(
          tr("Last results not restored: %1").arg(r.errors.join("; ")), 15000);
    emit resultsRestored(static_cast<int>(r.images.size()));
  });
  watcher->setFuture(QtConcurrent::run(readResults, prefix, names));
}

void ProjectActions::onEdited() {
  if (!applying_)
    document_->setCurrentState(stateKey());
}

void ProjectActions::onDatasetLoaded(const QString& path) {
  // The project's own data set keeps the path as written (the loader may canonicalise it).
  const QString canonical = QFileInfo(path).canonicalFilePath();
  if (data_path_.empty() ||
      canonical != QFileInfo(QString::fromStdString(data_path_)).canonicalFilePath())
    data_path_ = path.toStdString();
  dataset_name_ = QFileInfo(path).fileName();
  updateTitle();
  onEdited();
}

void ProjectActions::updateTitle() {
  QString title = document_->displayName() + (document_->isModified() ? "*" : "");
  if (!dataset_name_.isEmpty())
    title += QStringLiteral(" — ") + dataset_name_;
  window_->setWindowTitle(title + QStringLiteral(" — Apertura"));
}

}  // namespace apertura::gui
