#pragma once

#include <optional>
#include <string>

namespace apertura {

// Small angles as astronomers type them: a number with an optional unit, "0.1" or "0.1 arcsec"
// (also ", asec, as), "2 mas", "5 uas" or "5 µas", "1.5 arcmin" (also ', amin), "0.01 deg".
// A bare number is arcsec. Returns the angle in arcsec, or none when the text is not such an
// angle (an unknown unit, trailing text, not finite). The sign is kept: callers refuse what
// their field cannot take.
std::optional<double> parseAngleArcsec(const std::string& text);

// An angle in the unit that keeps it readable, with `digits` significant digits: µas below
// 1 mas, mas below 1 arcsec, then arcsec ("5 µas", "2.5 mas"; 0.1234 arcsec reads "123.4 mas").
// parseAngleArcsec reads it back (exactly, for up to `digits` significant digits: sub-arcsec
// units divide by a power of ten).
std::string formatAngleArcsec(double arcsec, int digits = 4);

}  // namespace apertura
