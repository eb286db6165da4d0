#include "gui/controller/app_preferences.h"

#include <QSettings>

#include <algorithm>

#include "gui/colormap/colormap.h"

namespace apertura::gui {

AppPreferences AppPreferences::load() {
  QSettings settings;
  settings.beginGroup(QStringLiteral("preferences"));
  AppPreferences p;
  // Values edited by hand in the settings file are clamped, never trusted to be in range.
  const QString colormap =
      settings.value(QStringLiteral("defaultColormap"), p.default_colormap).toString();
  if (colormapFromName(colormap))
    p.default_colormap = colormap.trimmed().toLower();
  p.threads = std::clamp(settings.value(QStringLiteral("threads"), p.threads).toInt(), 0, 4096);
  p.recent_count = std::clamp(settings.value(QStringLiteral("recentCount"), p.recent_count).toInt(),
                              1, kMaxRecent);
  p.snapshot_every = std::clamp(
      settings.value(QStringLiteral("snapshotEvery"), p.snapshot_every).toInt(), 1, 100000);
  p.launcher_command = settings.value(QStringLiteral("launcherCommand")).toString().trimmed();
  return p;
}

void AppPreferences::save() const {
  QSettings settings;
  settings.beginGroup(QStringLiteral("preferences"));
  settings.setValue(QStringLiteral("defaultColormap"), default_colormap);
  settings.setValue(QStringLiteral("threads"), threads);
  settings.setValue(QStringLiteral("recentCount"), recent_count);
  settings.setValue(QStringLiteral("snapshotEvery"), snapshot_every);
  settings.setValue(QStringLiteral("launcherCommand"), launcher_command.trimmed());
}

}  // namespace apertura::gui
