#pragma once

#include <QString>
#include <memory>

#include "core/engine/run_observer.h"

namespace apertura::gui {

// Reads one snapshot FITS file that `apertura-cli run --snapshot-dir` wrote during a launcher run
// back into the engine's snapshot form, so the views and the iteration stack take it exactly like
// an in-process snapshot. Runs on a worker thread (FITS I/O); throws InputError naming the file.
std::shared_ptr<const apertura::engine::ImageSnapshot> readSnapshotFile(const QString& path,
                                                                        const QString& name,
                                                                        int iteration);

}  // namespace apertura::gui
