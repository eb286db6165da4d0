#include "tests/support/shared_data.h"

#include <QDir>
#include <QFileInfo>

namespace apertura::testing {

QString sharedDataDir() {
  const QString dir = qEnvironmentVariable("APERTURA_SHARED_DATA");
  if (dir.isEmpty() || !QFileInfo(dir).isDir())
    return {};
  return QDir(dir).absolutePath();
}

}  // namespace apertura::testing
