#pragma once

#include <complex>
#include <functional>
#include <string>
#include <vector>

namespace apertura::testing {

// Damages or varies copies of the test Measurement Set (tests/support/test_ms_builder.h) so that
// reader tests can check each quirk and each error. casacore stays in the .cpp.

// Recursively copies a table directory (the copy is what gets damaged; inputs are never touched).
void copyTable(const std::string& from, const std::string& to);

void removeMainColumn(const std::string& ms, const std::string& column);
void removeSubtable(const std::string& ms, const std::string& name);
void setChannelFrequency(const std::string& ms, int spw, int channel, double hz);
void setCorrelationTypes(const std::string& ms, int polarization_row,
                         const std::vector<int>& types);
void setDataDescriptionWindow(const std::string& ms, int data_desc_row, int spw);
void setDataDescId(const std::string& ms, int row, int data_desc_id);
void setFlagRowAll(const std::string& ms);

// Sets DATA (or another complex column) of every row to f(row, corr, chan).
void fillComplexColumn(const std::string& ms, const std::string& column,
                       const std::function<std::complex<float>(int, int, int)>& f);
// Adds a complex column (CORRECTED_DATA, MODEL_DATA) shaped like DATA, filled with f.
void addComplexColumn(const std::string& ms, const std::string& column,
                      const std::function<std::complex<float>(int, int, int)>& f);
// Adds WEIGHT_SPECTRUM filled with f(row, corr, chan).
void addWeightSpectrum(const std::string& ms, const std::function<float(int, int, int)>& f);
// Sets WEIGHT of every row and correlation to w.
void setWeights(const std::string& ms, float w);
// Sets SIGMA of every row and correlation to s.
void setSigmas(const std::string& ms, float s);
// Sets UVW of one row, or of every row when row < 0.
void setUvw(const std::string& ms, int row, double u, double v, double w);
// Sets WEIGHT of one row (every correlation) to w.
void setRowWeight(const std::string& ms, int row, float w);

}  // namespace apertura::testing
