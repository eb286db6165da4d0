#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/project/project_settings.h"
#include "core/project/region_sky_grid.h"

namespace apertura::project {

// SAOImage DS9 region files <-> project mask regions.
//
// Read: coordinate systems `image` (1-based FITS pixels; `physical` is read the same way, since
// Apertura images carry no LTM/LTV keywords) and `fk5`/`icrs`/`j2000` (RA/Dec in degrees or
// sexagesimal; sizes with " ' d r suffixes, plain numbers in degrees as DS9 reads them; angles in
// degrees counter-clockwise from +x). Shapes box (rotbox), ellipse, circle, polygon; a leading
// '-' makes a region subtract, '+' or nothing adds. Boxes at 0/90/180/270 degrees become
// rectangles, other boxes 4-vertex polygons, circles ellipses. Sky coordinates need `grid`.
// Anything else throws InputError naming `source`, the line number and what was expected.
std::vector<MaskRegion> parseDs9Regions(const std::string& text, const std::string& source,
                                        const std::optional<RegionSkyGrid>& grid = std::nullopt);

// parseDs9Regions of a file's content; InputError when it cannot be read.
std::vector<MaskRegion> readDs9Regions(const std::string& path,
                                       const std::optional<RegionSkyGrid>& grid = std::nullopt);

// DS9 4.1 text (rectangle -> box, ellipse, polygon), numbers in their shortest round-trip form so
// reading it back (with the same grid) gives the same regions: in image coordinates, or with a
// valid `grid` in fk5 (J2000 RA/Dec in degrees, sizes in arcsec), as DS9 overlays regions on any
// image of the field. InputError for a region whose shape or value count is not a valid
// MaskRegion.
std::string formatDs9Regions(const std::vector<MaskRegion>& regions,
                             const std::optional<RegionSkyGrid>& grid = std::nullopt);

// formatDs9Regions written atomically to `path`.
void writeDs9Regions(const std::string& path, const std::vector<MaskRegion>& regions,
                     const std::optional<RegionSkyGrid>& grid = std::nullopt);

}  // namespace apertura::project
