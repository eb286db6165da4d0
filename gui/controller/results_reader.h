#pragma once

#include <QString>
#include <QStringList>
#include <vector>

#include "core/project/project_settings.h"
#include "gui/view/image_cube.h"

namespace apertura::gui {

// The last results of a project: the FITS images a run wrote (<prefix>-dirty.fits, ...), read back
// when the project is reopened.

// The output prefix as a run of the project at `project_path` uses it: the file's own prefix, made
// absolute against the project's folder, or, when empty, the project's path without its suffix.
QString resultsPrefix(const apertura::project::ProjectSettings& settings,
                      const QString& project_path);

struct RestoredImage {
  QString name;     // the image view it belongs to: dirty, psf, model, residual, restored
  ImageCube image;  // one plane, or every plane of a cube run's output (with the plane selector)
};

struct RestoredResults {
  std::vector<RestoredImage> images;
  QStringList errors;  // files that exist but could not be read, with the reason
};

// Reads <prefix>-<name>.fits for each name whose file exists: a 2-D image, or a cube (FREQ axis,
// per-plane beams) as a cube run writes them. Runs on a worker thread (FITS I/O); a missing file
// is not an error (that result was never written or was deleted).
RestoredResults readResults(const QString& prefix, const QStringList& names);

}  // namespace apertura::gui
