#pragma once

#include <QString>

namespace apertura::gui {

// Per-user defaults kept in QSettings (not in projects): what a new project and a new view start
// with, and how many recent projects the File menu remembers.
struct AppPreferences {
  static constexpr int kMaxRecent = 30;

  QString default_colormap = QStringLiteral("inferno");  // for new views (residuals stay diverging)
  int threads = 0;                                       // imaging.threads of new projects; 0: all
  int recent_count = 8;                                  // entries in File > Open recent
  int snapshot_every = 5;                                // optimizer.snapshot_every of new projects
  // Words put before apertura-cli by Run > Run with launcher (e.g. "mpirun -np 4"); empty: none.
  QString launcher_command;

  static AppPreferences load();
  void save() const;
};

}  // namespace apertura::gui
