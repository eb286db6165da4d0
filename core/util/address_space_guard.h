#pragma once

namespace apertura {

// Under an address-space limit (ulimit -v, RLIMIT_AS) C++ allocations of a megabyte or more fail
// with std::bad_alloc while less than kAddressSpaceMargin of the limit would be left. Libraries
// that abort when their own malloc fails (FFTW's execute asserts on its buffers, glibc's per-thread
// arenas) then still find room, and the stage reports "out of memory" instead of the process
// dying. Without a limit nothing changes. The check lives in this file's replacement of the global
// operator new, which a program links by calling installAddressSpaceGuard() (the executables do,
// first thing in main).
void installAddressSpaceGuard();

}  // namespace apertura
