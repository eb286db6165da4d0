#include "tests/support/test_ms_builder.h"

#include <casacore/casa/Arrays/Matrix.h>
#include <casacore/casa/Arrays/Vector.h>
#include <casacore/measures/Measures/Stokes.h>
#include <casacore/ms/MeasurementSets/MSColumns.h>
#include <casacore/ms/MeasurementSets/MeasurementSet.h>
#include <casacore/tables/Tables/SetupNewTab.h>
#include <cmath>

namespace apertura::testing {

namespace cc = casacore;

std::string writeTestMs(const std::string& path) {
  cc::TableDesc desc = cc::MeasurementSet::requiredTableDesc();
  cc::MeasurementSet::addColumnToDesc(desc, cc::MeasurementSet::DATA, 2);
  cc::SetupNewTable setup(path, desc, cc::Table::New);
  cc::MeasurementSet ms(setup);
  ms.createDefaultSubtables(cc::Table::New);
  cc::MSColumns cols(ms);

  ms.antenna().addRow(TestMsFacts::kAntennasListed);
  for (int a = 0; a < TestMsFacts::kAntennasListed; ++a) {
    cols.antenna().name().put(a, "A" + std::to_string(a));
    cols.antenna().dishDiameter().put(a, 12.0);
  }

  ms.field().addRow(2);
  for (int f = 0; f < 2; ++f) {
    cc::Matrix<double> dir(2, 1);
    dir(0, 0) = 1.0 + 0.5 * f;  // rad
    dir(1, 0) = -0.4 + 0.1 * f;
    cols.field().phaseDir().put(f, dir);
    cols.field().delayDir().put(f, dir);
    cols.field().referenceDir().put(f, dir);
    cols.field().name().put(f, f == 0 ? "SRC_A" : "SRC_B");
  }

  const int nchan[2] = {8, 4};
  const double f0[2] = {100e9, 230e9};
  const double df[2] = {1e6, -2e6};
  ms.spectralWindow().addRow(2);
  for (int s = 0; s < 2; ++s) {
    cc::Vector<double> freq(nchan[s]), width(nchan[s], df[s]);
    for (int c = 0; c < nchan[s]; ++c)
      freq(c) = f0[s] + c * df[s];
    cols.spectralWindow().chanFreq().put(s, freq);
    cols.spectralWindow().chanWidth().put(s, width);
    cols.spectralWindow().effectiveBW().put(s, width);
    cols.spectralWindow().resolution().put(s, width);
    cols.spectralWindow().numChan().put(s, nchan[s]);
    cols.spectralWindow().refFrequency().put(s, f0[s]);
    cols.spectralWindow().totalBandwidth().put(s, std::fabs(df[s]) * nchan[s]);
  }

  ms.polarization().addRow(1);
  cc::Vector<int> corr(2);
  corr(0) = cc::Stokes::XX;
  corr(1) = cc::Stokes::YY;
  cols.polarization().corrType().put(0, corr);
  cols.polarization().numCorr().put(0, 2);
  cols.polarization().corrProduct().put(0, cc::Matrix<int>(2, 2, 0));

  ms.dataDescription().addRow(2);
  for (int d = 0; d < 2; ++d) {
    cols.dataDescription().spectralWindowId().put(d, d);
    cols.dataDescription().polarizationId().put(d, 0);
  }

  ms.observation().addRow(1);
  cols.observation().telescopeName().put(0, "TESTARRAY");

  // Rows: antennas 0..2 (antenna 3 listed but unused). Row 5 is FLAG_ROW; rows 7 and 8 are the
  // autocorrelations; 3 single cells flagged on row 9.
  struct RowSpec {
    int a1, a2, ddid;
    double u, v, w;
  };
  const RowSpec rows[TestMsFacts::kRows] = {
      {0, 1, 0, 30.0, 0.0, 0.0},    {0, 2, 0, 100.0, 50.0, 10.0}, {1, 2, 0, -80.0, 60.0, 0.0},
      {0, 1, 0, 0.0, 300.0, 400.0}, {0, 2, 0, 40.0, -40.0, 20.0}, {1, 2, 0, 200.0, 0.0, 0.0},
      {0, 1, 1, 35.0, 5.0, 0.0},    {0, 0, 1, 0.0, 0.0, 0.0},     {1, 1, 1, 0.0, 0.0, 0.0},
      {1, 2, 1, -90.0, 70.0, 0.0},  {0, 2, 1, 120.0, 40.0, 0.0},  {0, 1, 1, 60.0, 80.0, 0.0}};
  ms.addRow(TestMsFacts::kRows);
  for (int r = 0; r < TestMsFacts::kRows; ++r) {
    const RowSpec& s = rows[r];
    const int nc = nchan[s.ddid];
    cc::Vector<double> uvw(3);
    uvw(0) = s.u;
    uvw(1) = s.v;
    uvw(2) = s.w;
    cols.uvw().put(r, uvw);
    cols.antenna1().put(r, s.a1);
    cols.antenna2().put(r, s.a2);
    cols.dataDescId().put(r, s.ddid);
    cols.fieldId().put(r, r % 2);
    cols.time().put(r, 5.0e9 + 10.0 * r);
    cols.interval().put(r, 10.0);
    cols.exposure().put(r, 10.0);
    cols.flagRow().put(r, r == 5);
    cc::Matrix<bool> flag(2, nc, false);
    if (r == 9) {
      flag(0, 0) = true;
      flag(1, 0) = true;
      flag(1, 3) = true;
    }
    cols.flag().put(r, flag);
    cols.data().put(r, cc::Matrix<cc::Complex>(2, nc, cc::Complex(1.0f, 0.0f)));
    cols.weight().put(r, cc::Vector<float>(2, 1.0f));
    cols.sigma().put(r, cc::Vector<float>(2, 1.0f));
  }
  return path;
}

}  // namespace apertura::testing
