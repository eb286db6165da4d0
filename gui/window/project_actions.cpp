// The project lifecycle of the main window, menus and files side: New, Open, Open recent, Save,
// Save as, the unsaved-changes prompt and Preferences. What a project puts into the window is in
// project_state.cpp.
#include "gui/window/project_actions.h"

#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>

#include "core/project/project_file.h"
#include "gui/controller/app_preferences.h"
#include "gui/controller/project_document.h"
#include "gui/controller/recent_projects.h"
#include "gui/controller/run_controller.h"
#include "gui/dialogs/preferences_dialog.h"
#include "gui/panels/run_settings_panel.h"
#include "gui/plots/convergence_panel.h"
#include "gui/window/main_window.h"

namespace apertura::gui {
namespace {

QString projectFilter() {
  return QObject::tr("Apertura projects (*.apertura);;JSON files (*.json);;All files (*)");
}

struct ProjectRead {
  std::optional<project::ProjectSettings> settings;
  QString error;
};

}  // namespace

void ProjectActions::addFileActions(QMenu* file) {
  QAction* create = file->addAction(tr("&New project"), this, [this] { newProject(); });
  create->setShortcut(QKeySequence::New);
  // Ctrl+O stays "Open data set" (the everyday action); projects add Shift.
  QAction* open = file->addAction(tr("Open &project…"), this, &ProjectActions::chooseProject);
  open->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
  recent_menu_ = file->addMenu(tr("Open &recent"));
  connect(recent_menu_, &QMenu::aboutToShow, this, &ProjectActions::fillRecentMenu);
  fillRecentMenu();
  QAction* store = file->addAction(tr("&Save project"), this, [this] { save(); });
  store->setShortcut(QKeySequence::Save);
  QAction* store_as = file->addAction(tr("Save project &as…"), this, [this] { chooseSaveAs(); });
  store_as->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
  file->addSeparator();
}

void ProjectActions::addEditActions(QMenu* edit) {
  QAction* prefs = edit->addAction(tr("&Preferences…"), this, &ProjectActions::showPreferences);
  prefs->setShortcut(QKeySequence::Preferences);
}

void ProjectActions::showPreferences() {
  PreferencesDialog dialog(window_);
  if (dialog.exec() == QDialog::Accepted)
    RecentProjects::truncate(dialog.preferences().recent_count);
}

void ProjectActions::fillRecentMenu() {
  recent_menu_->clear();
  const QStringList paths = RecentProjects::list().mid(0, AppPreferences::load().recent_count);
  for (int i = 0; i < paths.size(); ++i) {
    const QString path = paths[i];
    QAction* a =
        recent_menu_->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()),
                                this, [this, path] { openProject(path); });
    a->setData(path);
    a->setToolTip(path);
    a->setStatusTip(path);
  }
  if (paths.isEmpty())
    recent_menu_->addAction(tr("(no recent projects)"))->setEnabled(false);
  recent_menu_->addSeparator();
  recent_menu_->addAction(tr("&Clear list"), this, [] { RecentProjects::clear(); });
}

bool ProjectActions::refuseWhileRunning() {
  if (!window_->runController()->isRunning())
    return false;
  reportError(tr("Run in progress"), tr("Stop the run before opening or creating a project."));
  return true;
}

bool ProjectActions::newProject() {
  if (refuseWhileRunning() || !maybeSave())
    return false;
  ++generation_;
  clearImages();
  project::ProjectSettings s = newProjectSettings();
  s.data.path = data_path_;  // the open data set stays open
  showProject(s, QString());
  window_->statusBar()->showMessage(tr("New project"), 5000);
  return true;
}

bool ProjectActions::prepareForDataset(const QString& path) {
  if (data_path_.empty())
    return true;
  const QFileInfo current(QString::fromStdString(data_path_)), next(path);
  const bool same = current.canonicalFilePath().isEmpty()
                        ? current.absoluteFilePath() == next.absoluteFilePath()
                        : current.canonicalFilePath() == next.canonicalFilePath();
  if (same)
    return true;
  if (refuseWhileRunning() || !maybeSave())
    return false;
  ++generation_;  // results still being read belong to the old project
  clearImages();
  window_->convergence()->clear();
  project::ProjectSettings s = newProjectSettings();
  s.data.path = path.toStdString();
  showProject(s, QString());
  window_->statusBar()->showMessage(tr("New project for %1").arg(next.fileName()), 5000);
  return true;
}

void ProjectActions::chooseProject() {
  const QString dir = document_->path().isEmpty() ? QString() : QFileInfo(document_->path()).path();
  const QString path =
      QFileDialog::getOpenFileName(window_, tr("Open project"), dir, projectFilter());
  if (!path.isEmpty())
    openProject(path);
}

bool ProjectActions::openProject(const QString& path) {
  if (refuseWhileRunning() || !maybeSave())
    return false;
  const int generation = ++generation_;
  window_->statusBar()->showMessage(tr("Reading project %1…").arg(QFileInfo(path).fileName()));
  auto* watcher = new QFutureWatcher<ProjectRead>(this);
  connect(watcher, &QFutureWatcher<ProjectRead>::finished, this, [this, watcher, generation, path] {
    const ProjectRead r = watcher->result();
    watcher->deleteLater();
    onProjectRead(generation, path, r.settings, r.error);
  });
  watcher->setFuture(QtConcurrent::run([file = path.toStdString()] {
    ProjectRead r;
    try {
      r.settings = project::loadProject(file);
    } catch (const std::exception& e) {
      r.error = QString::fromStdString(e.what());
    }
    return r;
  }));
  return true;
}

void ProjectActions::onProjectRead(int generation, const QString& path,
                                   const std::optional<project::ProjectSettings>& settings,
                                   const QString& error) {
  if (generation != generation_)
    return;  // a later New/Open superseded this one
  if (!settings) {
    if (!QFileInfo(path).isFile())
      RecentProjects::remove(path);
    reportError(tr("Could not open project"), error);
    emit projectFailed(path, error);
    return;
  }
  const QString absolute = QFileInfo(path).absoluteFilePath();
  clearImages();
  showProject(*settings, absolute);
  RecentProjects::add(absolute, AppPreferences::load().recent_count);
  if (!settings->data.path.empty())
    window_->openDataset(QString::fromStdString(settings->data.path));
  restoreResults(*settings, absolute);
  if (settings->migration_note.empty()) {
    window_->statusBar()->showMessage(tr("Opened project %1").arg(QFileInfo(path).fileName()),
                                      5000);
  } else {
    // An older schema: say what it became (its images are unchanged), until the next message.
    window_->statusBar()->showMessage(QString::fromStdString(settings->migration_note));
  }
  emit projectOpened(absolute);
}

bool ProjectActions::save() {
  if (document_->path().isEmpty())
    return chooseSaveAs();
  return saveAs(document_->path());
}

bool ProjectActions::chooseSaveAs() {
  const QString suggestion =
      document_->path().isEmpty() ? QStringLiteral("untitled.apertura") : document_->path();
  const QString path =
      QFileDialog::getSaveFileName(window_, tr("Save project"), suggestion, projectFilter());
  return !path.isEmpty() && saveAs(path);
}

bool ProjectActions::saveAs(const QString& path) {
  QString file = path;
  if (QFileInfo(file).suffix().isEmpty())
    file += QStringLiteral(".apertura");
  const auto s = currentProject();
  if (!s) {
    reportError(
        tr("Could not save project"),
        tr("The run settings are invalid: %1").arg(window_->runSettings()->validationMessage()));
    return false;
  }
  try {
    // A few kilobytes written atomically; done here so that "Save" before closing completes
    // before the window goes.
    project::saveProject(*s, file.toStdString());
  } catch (const std::exception& e) {
    reportError(tr("Could not save project"), QString::fromStdString(e.what()));
    return false;
  }
  const QString absolute = QFileInfo(file).absoluteFilePath();
  showProject(*s, absolute);
  RecentProjects::add(absolute, AppPreferences::load().recent_count);
  window_->statusBar()->showMessage(tr("Saved %1").arg(absolute), 5000);
  emit projectSaved(absolute);
  return true;
}

bool ProjectActions::maybeSave() {
  onEdited();  // the flag is current even if some edit sent no signal
  if (!document_->isModified())
    return true;
  switch (askUnsaved()) {
    case Answer::Save:
      return save();
    case Answer::Discard:
      return true;
    case Answer::Cancel:
      break;
  }
  return false;
}

ProjectActions::Answer ProjectActions::askUnsaved() {
  if (prompt_)
    return prompt_(document_->displayName());
  const QString preset = qEnvironmentVariable("APERTURA_UNSAVED_ANSWER").toLower();
  if (preset == "save")
    return Answer::Save;
  if (preset == "discard")
    return Answer::Discard;
  if (preset == "cancel")
    return Answer::Cancel;
  QMessageBox box(QMessageBox::Warning, tr("Unsaved changes"),
                  tr("The project %1 has unsaved changes.").arg(document_->displayName()),
                  QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, window_);
  box.setInformativeText(tr("Save them before going on?"));
  box.setDefaultButton(QMessageBox::Save);
  switch (box.exec()) {
    case QMessageBox::Save:
      return Answer::Save;
    case QMessageBox::Discard:
      return Answer::Discard;
    default:
      return Answer::Cancel;
  }
}

void ProjectActions::reportError(const QString& title, const QString& message) {
  window_->statusBar()->showMessage(message, 15000);
  // Window-modal but not blocking: the event loop (and a test driving it) keeps running.
  auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, window_);
  box->setObjectName(QStringLiteral("project-error"));
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

bool ProjectActions::eventFilter(QObject* watched, QEvent* event) {
  if (watched == window_ && event->type() == QEvent::Close && !maybeSave()) {
    event->ignore();
    return true;
  }
  return QObject::eventFilter(watched, event);
}

}  // namespace apertura::gui
