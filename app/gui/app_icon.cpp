#include "app/gui/app_icon.h"

namespace apertura::app {

QIcon applicationIcon() {
  QIcon icon;
  for (const int size : {16, 22, 24, 32, 48, 64, 128, 256})
    icon.addFile(QString(":/icons/apertura-%1.png").arg(size), QSize(size, size));
  return icon;
}

}  // namespace apertura::app
