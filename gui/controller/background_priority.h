#pragma once

namespace apertura::gui {

// Lowers the scheduling priority of the calling thread (Linux: nice +kBackgroundNice for this
// thread only), so that compute threads it starts afterwards inherit it and the GUI thread and
// the compositor's threads win the CPU whenever they need it. Unprivileged: raising niceness
// needs no capability. A no-op where the platform has no per-thread priority.
void lowerCurrentThreadPriority();

inline constexpr int kBackgroundNice = 10;

}  // namespace apertura::gui
