#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace apertura {

// The files of one run, written under temporary names and renamed into place together by
// commit(): a failed or interrupted export leaves the previous set (or none), never a mix of old
// and new images. Staged files not committed are removed by the destructor; those of a killed
// process are removed by the next run (removeStaleTemporaries).
class OutputSet {
 public:
  OutputSet() = default;
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;
  ~OutputSet();

  // Calls `write` with the name to write `final_path` under now. Its errors name `final_path`
  // (the temporary name means nothing to users).
  void write(const std::string& final_path, const std::function<void(const std::string&)>& write);
  // Moves every staged file to its final name. Throws InputError naming the file that could not
  // be moved (the files not yet moved are removed).
  void commit();
  // The final names, in the order they were staged.
  std::vector<std::string> finalPaths() const;

 private:
  std::vector<std::pair<std::string, std::string>> files_;  // staged, final
  std::size_t committed_ = 0;
};

}  // namespace apertura
