#include "core/project/json_error_location.h"

#include <nlohmann/json.hpp>
#include <vector>

namespace apertura::project {
namespace {

using json = nlohmann::json;

// A SAX consumer that builds nothing: it only tracks the path of the value being read.
class PathTracker : public nlohmann::json_sax<json> {
 public:
  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override {
    levels_.push_back(Level{true, "", 0});
    return true;
  }
  bool key(string_t& k) override {
    levels_.back().key = k;
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override {
    levels_.push_back(Level{false, "", 0});
    return true;
  }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    problem_ = e.what();
    if (e.id == 406)  // out_of_range: a number beyond a double's range
      problem_ = "a number beyond the range of a double (" + problem_ + ")";
    return false;
  }

  std::string path() const {
    std::string p;
    for (const Level& l : levels_) {
      if (!l.object)
        p += "[" + std::to_string(l.index) + "]";
      else if (!l.key.empty())
        p += (p.empty() ? "" : ".") + l.key;
    }
    return p;
  }
  const std::string& problem() const { return problem_; }

 private:
  struct Level {
    bool object;
    std::string key;
    std::size_t index;
  };
  bool value() {
    if (!levels_.empty() && !levels_.back().object)
      ++levels_.back().index;
    return true;
  }
  bool close() {
    levels_.pop_back();
    return value();
  }
  std::vector<Level> levels_;
  std::string problem_;
};

}  // namespace

JsonErrorLocation locateJsonError(const std::string& text) {
  PathTracker tracker;
  json::sax_parse(text, &tracker);
  return {tracker.path(), tracker.problem()};
}

}  // namespace apertura::project
