#pragma once

namespace apertura {

class UvfitsHandle;
struct UvfitsLayout;

// Reads the AIPS FQ table (IF frequency offsets, channel widths, bandwidths) and the AIPS AN table
// (antenna count, dish diameters, array name) into `layout`, then moves back to the primary HDU.
// A file with several IFs but no usable FQ table is an error (its IF frequencies are unknown);
// other damaged extensions only add warnings.
void readAipsTables(UvfitsHandle& file, UvfitsLayout& layout);

}  // namespace apertura
