#pragma once

#include <string>

namespace apertura {

// Compares one storage-manager file of a casacore table (table.f<N>, table.f<N>i) with the sizes
// its own header records, before casacore reads it. casacore trusts those sizes: given a
// StandardStMan file cut short it builds its row index from a short read and crashes (issue #33).
// Checked: the AipsIO header is whole; StandardStMan and IncrementalStMan files hold every bucket
// the header counts; the tiled storage managers' data files (table.f<N>_TSM<k>) hold the length
// their header file lists; indirect-array files (table.f<N>i) the length their header gives.
// Throws InputError naming the damaged file, its size and what its header says. Files of other
// kinds, and files too short to tell their kind, pass: casacore reports those itself.
// `file` must be a regular file (a FIFO would block the read).
void checkStorageManagerFile(const std::string& file);

}  // namespace apertura
