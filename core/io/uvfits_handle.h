#pragma once

#include <fitsio.h>

#include <string>

namespace apertura {

// Owns a cfitsio handle opened read-only; closes it on destruction. Throws InputError naming the
// file when cfitsio cannot open it.
class UvfitsHandle {
 public:
  explicit UvfitsHandle(const std::string& path);
  ~UvfitsHandle();
  UvfitsHandle(const UvfitsHandle&) = delete;
  UvfitsHandle& operator=(const UvfitsHandle&) = delete;

  fitsfile* get() const { return file_; }
  const std::string& path() const { return path_; }
  // Throws InputError("<what>: <cfitsio message>") when status is nonzero.
  void check(int status, const std::string& what) const;

 private:
  std::string path_;
  fitsfile* file_ = nullptr;
};

}  // namespace apertura
