#pragma once

#include <fitsio.h>

#include <string>

namespace apertura {

// Owns a cfitsio handle, opened read-only unless `writable`; closes it on destruction. Throws
// InputError naming the file when cfitsio cannot open it.
class UvfitsHandle {
 public:
  explicit UvfitsHandle(const std::string& path, bool writable = false);
  ~UvfitsHandle();
  UvfitsHandle(const UvfitsHandle&) = delete;
  UvfitsHandle& operator=(const UvfitsHandle&) = delete;

  fitsfile* get() const { return file_; }
  const std::string& path() const { return path_; }
  // Throws InputError("<what>: <cfitsio message>") when status is nonzero.
  void check(int status, const std::string& what) const;
  // Closes the file now, so that a failure to write its last buffers is an error (the destructor
  // cannot report one).
  void close();

 private:
  std::string path_;
  fitsfile* file_ = nullptr;
};

}  // namespace apertura
