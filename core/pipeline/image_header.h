#pragma once

#include <string>
#include <vector>

#include "core/engine/run_observer.h"
#include "core/io/fits_image_io.h"
#include "core/pipeline/imaging_products.h"
#include "core/project/project_settings.h"

namespace apertura::pipeline {

// The FITS header of an image Apertura writes, in one place so that a run's outputs
// (<prefix>-dirty.fits, ...) and the snapshots `apertura-cli run --snapshot-dir` writes during a
// run describe the same grid the same way: SIN projection about the phase centre at pixel
// (nx/2, ny/2), the engine's cells, BUNIT and HISTORY. Pixels, spectral axis and beams are the
// caller's.

// A run's output image: its grid and phase centre, `bunit` ("JY/BEAM", "JY/PIXEL", "" for the
// PSF), the object, telescope and start of the observation, and `history` (provenance).
FitsImage imageHeader(const ImagingProducts& p, const std::string& bunit,
                      const std::vector<std::string>& history);

// The HISTORY cards of a run's images: the version, then the run's project as JSON, one line per
// card (70 characters at most), so the image says how it was made. The run's outputs and the
// desktop application's exports carry the same.
std::vector<std::string> provenanceHistory(const project::ProjectSettings& s);

// A snapshot the engine published during a run: its grid and phase centre, its unit in FITS
// spelling ("Jy/beam" -> "JY/BEAM"; empty for the PSF) and a HISTORY card naming the image and
// its iteration.
FitsImage snapshotHeader(const engine::ImageSnapshot& image);

}  // namespace apertura::pipeline
