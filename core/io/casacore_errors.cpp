#include "core/io/casacore_errors.h"

#include <casacore/casa/Arrays/ArrayError.h>
#include <casacore/casa/Exceptions/Error.h>

namespace apertura {

bool isCasacoreError(const std::exception& e) {
  return dynamic_cast<const casacore::AipsError*>(&e) != nullptr ||
         dynamic_cast<const casacore::ArrayError*>(&e) != nullptr;
}

}  // namespace apertura
