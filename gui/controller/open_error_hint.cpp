#include "gui/controller/open_error_hint.h"

#include <QObject>

namespace apertura::gui {

QString openErrorHint(const QString& message) {
  if (message.contains("no such file"))
    return QObject::tr("Check the path: the file or folder may have moved or been renamed.");
  if (message.contains("ermission"))
    return QObject::tr(
        "Check that you may read the file (and, for a Measurement Set, every file in its "
        "folder).");
  if (message.contains("Measurement Set") || message.contains("FITS") || message.contains("table"))
    return QObject::tr(
        "Apertura opens Measurement Sets (a folder with table.dat) and UVFITS files; a file "
        "written by another tool may need to be exported again (e.g. CASA exportuvfits).");
  return QObject::tr("The Log tab keeps this message; File > Open data set… tries another.");
}

}  // namespace apertura::gui
