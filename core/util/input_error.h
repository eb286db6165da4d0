#pragma once

#include <stdexcept>
#include <string>

namespace apertura {

// Raised for anything wrong with a user's input file or settings. The message always names the
// file (or setting) and what was expected, so front ends can show it verbatim.
class InputError : public std::runtime_error {
 public:
  InputError(const std::string& path, const std::string& problem)
      : std::runtime_error(path.empty() ? problem : path + ": " + problem),
        path_(path),
        problem_(problem) {}

  const std::string& path() const { return path_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string path_;
  std::string problem_;
};

// A resource the system refused while writing (no space left on device, a quota): not the
// input's fault, so front ends report a failure rather than bad input, but the message is of the
// same kind and names the file.
class ResourceError : public InputError {
 public:
  using InputError::InputError;
};

}  // namespace apertura
