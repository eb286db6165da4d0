#include "tests/sim/casacore_uvw.h"

#include <casacore/casa/Arrays/Vector.h>
#include <casacore/measures/Measures/MBaseline.h>
#include <casacore/measures/Measures/MCBaseline.h>
#include <casacore/measures/Measures/MDirection.h>
#include <casacore/measures/Measures/MEpoch.h>
#include <casacore/measures/Measures/MPosition.h>
#include <casacore/measures/Measures/MeasConvert.h>
#include <casacore/measures/Measures/MeasFrame.h>
#include <casacore/measures/Measures/MeasTable.h>
#include <casacore/measures/Measures/Muvw.h>

namespace apertura::testing {

namespace cc = casacore;

std::vector<sim::Vec3> casacoreAntennaUvw(double mjd_utc_s, const std::vector<sim::Vec3>& itrf,
                                          const sim::Vec3& obs, double ra, double dec) {
  const cc::MEpoch epoch(cc::MVEpoch(mjd_utc_s / 86400.0), cc::MEpoch::UTC);
  const cc::MPosition position(cc::MVPosition(obs[0], obs[1], obs[2]), cc::MPosition::ITRF);
  const cc::MDirection direction(cc::MVDirection(ra, dec), cc::MDirection::J2000);
  cc::MeasFrame frame(epoch, position, direction);
  cc::MBaseline::Convert convert(cc::MBaseline::Ref(cc::MBaseline::ITRF, frame),
                                 cc::MBaseline::Ref(cc::MBaseline::J2000, frame));
  std::vector<sim::Vec3> out;
  for (const auto& p : itrf) {
    const cc::MVBaseline b(p[0] - itrf[0][0], p[1] - itrf[0][1], p[2] - itrf[0][2]);
    const cc::MVBaseline j2000 = convert(b).getValue();
    const cc::Vector<double> uvw = cc::MVuvw(j2000, direction.getValue()).getValue();
    out.push_back({uvw(0), uvw(1), uvw(2)});
  }
  return out;
}

double casacoreDut1(double mjd_utc_s) {
  return cc::MeasTable::dUT1(mjd_utc_s / 86400.0);
}

}  // namespace apertura::testing
