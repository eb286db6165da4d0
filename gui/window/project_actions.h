#pragma once

#include <QMap>
#include <QObject>
#include <QPointer>
#include <QString>
#include <functional>
#include <optional>
#include <string>

#include "core/project/project_settings.h"
#include "gui/view/view_state.h"

class QAction;
class QMenu;

namespace apertura::gui {

class MainWindow;
class ProjectDocument;

// The project lifecycle of the main window: New, Open, Open recent, Save, Save as, the
// unsaved-changes prompt (also on close), Preferences, and restoring a project's data set, run
// settings, view state and last results. The project is what the window shows: the loaded (or
// default) project with the panel's edits and the views' state applied over it.
class ProjectActions : public QObject {
  Q_OBJECT

 public:
  enum class Answer { Save, Discard, Cancel };
  // Asked when unsaved changes would be lost; gets the project's display name. Tests install one
  // so no modal dialog runs. Without it (and without APERTURA_UNSAVED_ANSWER=save|discard|cancel
  // in the environment) a message box asks.
  using UnsavedPrompt = std::function<Answer(const QString& project_name)>;

  explicit ProjectActions(MainWindow* window);

  // Adds New, Open, Open recent, Save and Save as (and a separator) to the File menu, and
  // Preferences to `edit`.
  void addFileActions(QMenu* file);
  void addEditActions(QMenu* edit);

  // Each returns false when it did not happen (cancelled at the prompt, a run in progress, a
  // save error). openProject reads the file in the background: projectOpened or projectFailed
  // follows, then resultsRestored once the last results were read.
  bool newProject();
  // Before a data set other than the project's is opened (File > Open, the demo, a simulation):
  // a project belongs to its data set, so the current one is offered for saving and a new,
  // untitled project for `path` takes its place (defaults, no mask, cleared views and plots).
  // Its runs then cannot write over the old project's outputs. False, changing nothing, when a
  // run is going or the user cancels. The project's own data set, or the first one, changes
  // nothing.
  bool prepareForDataset(const QString& path);
  bool openProject(const QString& path);
  bool save();
  bool saveAs(const QString& path);
  // Offers to save unsaved changes; true when the caller may go on.
  bool maybeSave();

  // The project as the window shows it now; nullopt while a panel field is invalid.
  std::optional<apertura::project::ProjectSettings> currentProject() const;
  // What a run of `dataset` uses: the current project, with the output prefix resolved like the
  // CLI does (beside a saved project, named after it) so that its results can be restored when
  // the project is reopened; an untitled project writes no files.
  std::optional<apertura::project::ProjectSettings> settingsForRun(const QString& dataset) const;
  // Gives every regularizer whose λ is auto the fixed `lambda`: the run settings show it, and
  // the project counts as changed. Returns how many terms changed (-1 while a field is invalid).
  int fixAutomaticLambdas(double lambda);
  ProjectDocument* document() const { return document_; }
  QMenu* recentMenu() const { return recent_menu_; }
  void setUnsavedPrompt(UnsavedPrompt prompt) { prompt_ = std::move(prompt); }
  void showPreferences();

 signals:
  void projectOpened(const QString& path);
  void projectFailed(const QString& path, const QString& message);
  void projectSaved(const QString& path);
  // The last results found on disk are in the image views (count may be 0).
  void resultsRestored(int count);

 protected:
  // Intercepts the window's close event for the unsaved-changes prompt.
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  // project_actions.cpp: menus, prompts, files.
  void chooseProject();
  bool chooseSaveAs();
  void fillRecentMenu();
  Answer askUnsaved();
  bool refuseWhileRunning();
  void reportError(const QString& title, const QString& message);
  void onProjectRead(int generation, const QString& path,
                     const std::optional<apertura::project::ProjectSettings>& settings,
                     const QString& error);
  // project_state.cpp: what the window shows.
  void showProject(const apertura::project::ProjectSettings& settings, const QString& path);
  void applyViews(const apertura::project::ProjectSettings& settings);
  void clearImages();
  void restoreResults(const apertura::project::ProjectSettings& settings, const QString& path);
  void applyPendingGeometry(const QString& name);
  void onEdited();
  void onDatasetLoaded(const QString& path);
  void captureMask(apertura::project::ProjectSettings& s) const;
  std::string stateKey() const;
  void updateTitle();
  apertura::project::ProjectSettings newProjectSettings() const;

  MainWindow* window_;
  ProjectDocument* document_;
  QMenu* recent_menu_ = nullptr;
  UnsavedPrompt prompt_;
  apertura::project::ProjectSettings base_;       // loaded or last saved
  apertura::project::ProjectSettings shown_;      // the panel's rendering of base_
  std::string data_path_;                         // the data set of the project
  QString dataset_name_;                          // for the title
  QMap<QString, ViewGeometry> pending_geometry_;  // applied when the view gets its image
  int generation_ = 0;  // bumps on New/Open so late background results are dropped
  bool applying_ = false;
  bool shown_use_mask_ = false;  // the mask panel's "use mask" as the project set it
};

}  // namespace apertura::gui
