#include "gui/controller/dataset_file_filters.h"

#include <QObject>
#include <QRegularExpression>

#include "core/plugin/plugin_registry.h"

namespace apertura::gui {

namespace {

const QStringList kUvfitsPatterns = {"*.uvfits", "*.uvf", "*.fits"};

}  // namespace

QStringList readerPatterns(const char* file_patterns) {
  QStringList patterns;
  if (!file_patterns)
    return patterns;
  const QStringList tokens =
      QString::fromUtf8(file_patterns)
          .split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
  for (const QString& token : tokens) {
    if (token.contains('(') || token.contains(')') || token.contains(';'))
      continue;
    if (!patterns.contains(token))
      patterns << token;
  }
  return patterns;
}

QStringList datasetFileFilters(const plugin::PluginRegistry& registry) {
  QStringList all = kUvfitsPatterns;
  QStringList per_reader;
  for (const plugin::LoadedPlugin& p : registry.plugins()) {
    for (std::size_t i = 0; i < p.api->num_readers; ++i) {
      const AperturaReaderV1& reader = p.api->readers[i];
      const QStringList patterns = readerPatterns(reader.file_patterns);
      if (patterns.isEmpty())
        continue;
      per_reader << QObject::tr("%1 — plugin %2 (%3)")
                        .arg(QString::fromUtf8(reader.name), QString::fromUtf8(p.api->name),
                             patterns.join(' '));
      for (const QString& pattern : patterns) {
        if (!all.contains(pattern))
          all << pattern;
      }
    }
  }
  QStringList filters;
  filters << QObject::tr("All data files (%1)").arg(all.join(' '));
  filters << QObject::tr("UVFITS (%1)").arg(kUvfitsPatterns.join(' '));
  filters << per_reader;
  filters << QObject::tr("All files (*)");
  return filters;
}

}  // namespace apertura::gui
