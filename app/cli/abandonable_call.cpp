#include "app/cli/abandonable_call.h"

#include <atomic>

namespace apertura::cli {
namespace {
std::atomic<bool> g_abandoned{false};
}

bool callAbandoned() {
  return g_abandoned.load();
}
void markCallAbandoned() {
  g_abandoned.store(true);
}

}  // namespace apertura::cli
