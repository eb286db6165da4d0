#include "core/io/uvfits_handle.h"

#include "core/util/input_error.h"

namespace apertura {

UvfitsHandle::UvfitsHandle(const std::string& path, bool writable) : path_(path) {
  int status = 0;
  // The disk-file variant takes the name literally (no "[ext]" or filter syntax).
  if (fits_open_diskfile(&file_, path.c_str(), writable ? READWRITE : READONLY, &status)) {
    file_ = nullptr;
    check(status, "cfitsio could not open the file");
  }
}

UvfitsHandle::~UvfitsHandle() {
  if (file_ != nullptr) {
    int status = 0;
    fits_close_file(file_, &status);
  }
}

void UvfitsHandle::close() {
  if (file_ == nullptr)
    return;
  int status = 0;
  fits_close_file(file_, &status);
  file_ = nullptr;
  check(status, "cfitsio could not close the file");
}

void UvfitsHandle::check(int status, const std::string& what) const {
  if (status == 0)
    return;
  char text[FLEN_STATUS] = {0};
  fits_get_errstatus(status, text);
  fits_clear_errmsg();
  throw InputError(path_, what + " (cfitsio: " + text + ")");
}

}  // namespace apertura
