#pragma once

#include <QStringList>

namespace apertura::gui {

// The File > Open recent list, most recent first, kept in QSettings. Paths are stored absolute;
// entries whose files were deleted or moved are dropped whenever the list is read.
class RecentProjects {
 public:
  static QStringList list();
  // Moves (or inserts) `path` to the front and keeps at most `limit` entries.
  static void add(const QString& path, int limit);
  static void remove(const QString& path);
  static void clear();
  // Trims the stored list to `limit` entries (after the preference changed).
  static void truncate(int limit);

 private:
  static QStringList stored();
  static void store(const QStringList& paths);
};

}  // namespace apertura::gui
