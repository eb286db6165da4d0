#pragma once

#include <QDialog>

#include "gui/controller/app_preferences.h"

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace apertura::gui {

// Edit > Preferences: per-user defaults (default colormap of new views, compute threads and
// snapshot interval of new projects, length of the recent-projects list). accept() stores them.
class PreferencesDialog : public QDialog {
  Q_OBJECT

 public:
  explicit PreferencesDialog(QWidget* parent = nullptr);

  AppPreferences preferences() const;
  void setPreferences(const AppPreferences& preferences);

  QComboBox* colormapBox() const { return colormap_; }
  QSpinBox* threadsBox() const { return threads_; }
  QSpinBox* recentBox() const { return recent_; }
  QSpinBox* snapshotBox() const { return snapshot_; }
  QLineEdit* launcherEdit() const { return launcher_; }

 public slots:
  void accept() override;

 private:
  QComboBox* colormap_;
  QSpinBox* threads_;
  QSpinBox* recent_;
  QSpinBox* snapshot_;
  QLineEdit* launcher_;
};

}  // namespace apertura::gui
