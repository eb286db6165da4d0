#pragma once

#include <QString>

namespace apertura::testing {

// ../shared/data as seen from the source tree (CMake passes APERTURA_SHARED_DATA). Empty when
// absent: a user's fresh clone has none, and tests that need it exit with kSkipExitCode.
QString sharedDataDir();
inline constexpr int kSkipExitCode = 77;  // CTest SKIP_RETURN_CODE

}  // namespace apertura::testing
