#pragma once

#include <string>

namespace apertura {

// Sexagesimal strings as astronomers read them: RA "hh:mm:ss.sss" (wrapped into [0, 24h)),
// Dec "+dd:mm:ss.ss".
std::string formatRightAscension(double ra_rad);
std::string formatDeclination(double dec_rad);

// A right ascension in degrees in [0, 360), as FITS headers and catalogues carry it (a phase
// centre may be stored in [-180, 180) or beyond a turn).
double rightAscensionDegrees(double ra_rad);

// MJD seconds (the MS TIME convention) as an ISO-8601 UTC string with milliseconds.
std::string formatMjdSeconds(double mjd_s);
// The UTC day that contains `mjd_s` (MJD seconds), "YYYY-MM-DD", as FITS DATE-OBS and the AIPS
// RDATE want it; unlike formatMjdSeconds() it never rounds into the next day.
std::string formatMjdDate(double mjd_s);

// A frequency with a unit that keeps 4-7 significant digits readable ("344.8178 GHz").
std::string formatFrequency(double hz);

}  // namespace apertura
