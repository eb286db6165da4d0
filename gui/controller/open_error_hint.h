#pragma once

#include <QString>

namespace apertura::gui {

// What to try after a data set failed to open, from the reader's message (core's InputError
// texts name the file, the table or keyword, and what was expected).
QString openErrorHint(const QString& message);

}  // namespace apertura::gui
