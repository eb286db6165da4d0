#include "gui/controller/recent_projects.h"

#include <QFileInfo>
#include <QSettings>

#include <algorithm>

namespace apertura::gui {
namespace {

const QString kKey = QStringLiteral("recentProjects");

QString absolute(const QString& path) {
  return QFileInfo(path).absoluteFilePath();
}

}  // namespace

QStringList RecentProjects::stored() {
  return QSettings().value(kKey).toStringList();
}

void RecentProjects::store(const QStringList& paths) {
  QSettings().setValue(kKey, paths);
}

QStringList RecentProjects::list() {
  const QStringList all = stored();
  QStringList existing;
  for (const QString& p : all) {
    if (QFileInfo(p).isFile() && !existing.contains(p))
      existing << p;
  }
  if (existing != all)
    store(existing);  // forget the missing ones for good
  return existing;
}

void RecentProjects::add(const QString& path, int limit) {
  QStringList paths = stored();
  const QString p = absolute(path);
  paths.removeAll(p);
  paths.prepend(p);
  while (paths.size() > std::max(1, limit))
    paths.removeLast();
  store(paths);
}

void RecentProjects::remove(const QString& path) {
  QStringList paths = stored();
  if (paths.removeAll(absolute(path)) > 0)
    store(paths);
}

void RecentProjects::clear() {
  store({});
}

void RecentProjects::truncate(int limit) {
  QStringList paths = stored();
  if (paths.size() <= limit)
    return;
  paths = paths.mid(0, std::max(1, limit));
  store(paths);
}

}  // namespace apertura::gui
