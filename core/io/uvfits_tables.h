#pragma once

namespace apertura {

class UvfitsHandle;
struct UvfitsLayout;

// Reads the AIPS FQ table (IF frequency offsets, channel widths, bandwidths), the AIPS AN table
// (antenna count, dish diameters, array name) and the AIPS SU table (source IDs, names and
// positions of a multi-source file) into `layout`, then moves back to the primary HDU.
// A file with several IFs but no usable FQ table is an error (its IF frequencies are unknown);
// other damaged extensions only add warnings.
void readAipsTables(UvfitsHandle& file, UvfitsLayout& layout);

}  // namespace apertura
