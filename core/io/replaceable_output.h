#pragma once

#include <string>
#include <utility>
#include <vector>

namespace apertura {

// Apertura replaces an existing output only when it is what Apertura writes there: a user's
// folder or file that merely has the same name is never deleted.

// A casacore table whose table info has the type "Measurement Set" (casacore's TableInfo).
bool isMeasurementSetDirectory(const std::string& path);

// A regular file that starts with a FITS primary header ("SIMPLE  =").
bool isFitsFile(const std::string& path);

// Throws InputError naming `path` unless it is absent or a Measurement Set (what --overwrite may
// replace with a new Measurement Set).
void requireReplaceableMeasurementSet(const std::string& path);

// Throws InputError naming `path` unless it is absent or a FITS file (e.g. a UVFITS file).
void requireReplaceableFits(const std::string& path);

// Throws InputError naming `output` when it is one of the inputs, or a folder holding one
// (replacing it would destroy what is being read): `inputs` are {option, path} pairs, e.g.
// {"--sky-fits", "sky.fits"}; empty paths and absent files are skipped.
void requireOutputApartFromInputs(const std::string& output,
                                  const std::vector<std::pair<std::string, std::string>>& inputs);

}  // namespace apertura
