#pragma once

#include <string>

#include "core/engine/run_observer.h"

namespace apertura::cli {

// Writes the images a run publishes while it runs (`apertura-cli run --snapshot-dir DIR`) as FITS
// files, so a front end following a run in another process (the GUI's "Run with launcher") can
// show them before the run ends. Each file appears complete or not at all (written to a temporary
// sibling and renamed).
class SnapshotWriter {
 public:
  // Creates `dir` (and its parents) when missing; throws InputError naming --snapshot-dir and the
  // folder when it cannot be created or is not a folder.
  explicit SnapshotWriter(std::string dir);

  // <dir>/<name>-<iteration, 6 digits>.fits (iteration -1, images before the optimizer: "init").
  std::string pathFor(const apertura::engine::ImageSnapshot& image) const;
  // Writes `image` with its WCS, unit and beam; returns the path. Throws InputError on failure.
  std::string write(const apertura::engine::ImageSnapshot& image) const;

  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
};

}  // namespace apertura::cli
