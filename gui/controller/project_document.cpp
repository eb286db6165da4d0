#include "gui/controller/project_document.h"

#include <QFileInfo>

namespace apertura::gui {

ProjectDocument::ProjectDocument(QObject* parent) : QObject(parent) {}

QString ProjectDocument::displayName() const {
  return path_.isEmpty() ? tr("Untitled") : QFileInfo(path_).fileName();
}

void ProjectDocument::reset(const QString& path, const std::string& state) {
  const bool was_modified = modified_;
  const bool moved = path != path_;
  path_ = path;
  saved_ = state;
  modified_ = false;
  if (moved || was_modified)
    emit changed();
}

void ProjectDocument::setCurrentState(const std::string& state) {
  const bool modified = state != saved_;
  if (modified == modified_)
    return;
  modified_ = modified;
  emit changed();
}

}  // namespace apertura::gui
