#pragma once

#include <exception>

namespace apertura {

// Whether `e` is one of casacore's exceptions: AipsError and its kin, or ArrayError, which since
// casacore 3.4 derives from std::runtime_error rather than AipsError (a damaged array column
// raises it). The Measurement Set readers turn these into InputError naming the data set; other
// exceptions (cancellation, out of memory, our own bugs) pass unchanged.
bool isCasacoreError(const std::exception& e);

}  // namespace apertura
