#pragma once

#include <string>
#include <vector>

namespace apertura {

// Correlation (polarization product) codes as the Measurement Set CORR_TYPE column numbers them
// (casacore Stokes::StokesTypes). UVFITS STOKES axis values are mapped onto the same codes.
enum class Correlation : int {
  I = 1,
  Q = 2,
  U = 3,
  V = 4,
  RR = 5,
  RL = 6,
  LR = 7,
  LL = 8,
  XX = 9,
  XY = 10,
  YX = 11,
  YY = 12,
};

// True for the codes 1..12 above; other casacore codes (RX, PP, ...) cannot be imaged here.
bool isKnownCorrelationCode(int code);
std::string correlationName(Correlation c);

// XX, YY, RR, LL and Stokes I: the correlations in which an unpolarised sky's Stokes I appears
// (the cross hands and Q, U, V of an unpolarised sky are zero).
inline bool isParallelHand(Correlation c) {
  return c == Correlation::XX || c == Correlation::YY || c == Correlation::RR ||
         c == Correlation::LL || c == Correlation::I;
}

// UVFITS STOKES axis value: 1..4 IQUV, -1..-4 RR LL RL LR, -5..-8 XX YY XY YX. Returns false for
// anything else.
bool correlationFromUvfitsStokes(int stokes, Correlation& out);

}  // namespace apertura
