#include "gui/controller/background_priority.h"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace apertura::gui {

void lowerCurrentThreadPriority() {
#if defined(__linux__)
  // On Linux PRIO_PROCESS with a thread id changes that thread alone (threads have their own
  // nice value), and threads created later by it start with the same value.
  const auto tid = static_cast<id_t>(syscall(SYS_gettid));
  const int current = getpriority(PRIO_PROCESS, tid);
  if (current < kBackgroundNice)
    setpriority(PRIO_PROCESS, tid, kBackgroundNice);
#endif
}

}  // namespace apertura::gui
