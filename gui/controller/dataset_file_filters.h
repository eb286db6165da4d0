#pragma once

#include <QStringList>

namespace apertura::plugin {
class PluginRegistry;
}

namespace apertura::gui {

// Name filters for the "Open data file" dialog: first one that shows every known data file
// (UVFITS and the patterns of each loaded reader plugin), then UVFITS, then one per plugin reader
// ("CSV — plugin csv (*.csv *.txt)"), and last "All files (*)". A reader without usable patterns
// gets no filter of its own: its files are reached through "All files", where opening offers
// them to every reader's probe() (core/plugin/plugin_dataset_summary.h).
QStringList datasetFileFilters(const apertura::plugin::PluginRegistry& registry);

// The glob patterns a plugin declared, cleaned for a Qt name filter: split at whitespace, and
// only tokens without parentheses or ';' (which would break the filter syntax) kept.
QStringList readerPatterns(const char* file_patterns);

}  // namespace apertura::gui
