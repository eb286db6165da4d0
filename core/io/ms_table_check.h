#pragma once

#include <string>

namespace apertura {

// Checks the files of the casacore table at `path` and of every table inside it (a Measurement
// Set's subtables: any folder holding table.dat) before casacore opens any of them. casacore
// meets some damage with a crash, an abort or a hang rather than an exception (issue #33):
//  - table.dat, table.info, table.lock and the storage-manager files (table.f*) must be regular
//    files, symbolic links resolved: casacore blocks for ever opening a FIFO and crashes reading
//    a folder as its lock file. Nothing named table.* may be a FIFO, socket or device;
//  - storage-manager files must be as long as their headers say (stman_header_check.h);
//  - each table.dat must hold a table description casacore can read: casacore 3.5 aborts on a
//    column type it does not know.
// Only reads (stat, a few header bytes, the descriptions): the input is never changed. Throws
// InputError naming the file at fault and what was expected. A folder without table.dat passes
// (the caller says that it is not a table).
void checkTableTree(const std::string& path);

}  // namespace apertura
