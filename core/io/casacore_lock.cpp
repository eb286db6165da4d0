#include "core/io/casacore_lock.h"

namespace apertura {

std::recursive_mutex& casacoreMutex() {
  static std::recursive_mutex mutex;
  return mutex;
}

}  // namespace apertura
