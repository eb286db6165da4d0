#include "core/engine/rank_warnings.h"

#include <algorithm>
#include <map>
#include <regex>

#include "core/engine/rank_gather.h"

namespace apertura::engine {
namespace {

// Every rank's list on every rank: each rank's warnings, '\0'-separated.
std::vector<std::vector<std::string>> shareLists(const std::vector<std::string>& local,
                                                 Communicator& comm) {
  std::vector<char> packed;
  for (const auto& w : local) {
    packed.insert(packed.end(), w.begin(), w.end());
    packed.push_back('\0');
  }
  std::vector<std::vector<std::string>> all;
  for (const std::vector<char>& list : gatherOnEveryRank(packed, comm)) {
    all.emplace_back();
    for (auto start = list.begin(); start != list.end();) {
      const auto end = std::find(start, list.end(), '\0');
      all.back().emplace_back(start, end);
      start = end == list.end() ? end : end + 1;
    }
  }
  return all;
}

}  // namespace

std::vector<std::string> mergeWarningsOverRanks(const std::vector<std::string>& local,
                                                Communicator& comm) {
  if (comm.size() == 1)
    return local;
  const std::vector<std::vector<std::string>> all = shareLists(local, comm);
  // "PREFIX: all N TEXT" (everything flagged) before the general "PREFIX: N TEXT" (a count).
  static const std::regex all_flagged(R"(^(.*: |)all (\d+) (selected visibilities are flagged)$)");
  static const std::regex counted(R"(^(.*: |)(\d+) (.*)$)");
  struct Entry {
    bool counts = false, everything = false;
    std::string prefix, text;
    unsigned long long total = 0;
    int ranks = 0;  // ranks that reported it
  };
  std::vector<std::string> order;  // keys in order of first appearance
  std::map<std::string, Entry> entries;
  for (const auto& list : all) {
    for (const auto& w : list) {
      std::smatch m;
      Entry e;
      std::string key = w;
      e.everything = std::regex_match(w, m, all_flagged);
      if (e.everything || std::regex_match(w, m, counted)) {
        e.counts = true;
        e.prefix = m[1];
        e.text = m[3];
        key = std::string(e.everything ? "all|" : "n|") + e.prefix + "|" + e.text;
      }
      auto [it, inserted] = entries.emplace(key, e);
      if (inserted)
        order.push_back(key);
      if (it->second.counts)
        it->second.total += std::stoull(m[2]);
      ++it->second.ranks;
    }
  }
  std::vector<std::string> merged;
  for (const auto& key : order) {
    const Entry& e = entries.at(key);
    if (!e.counts) {
      merged.push_back(key);
    } else if (!e.everything) {
      merged.push_back(e.prefix + std::to_string(e.total) + " " + e.text);
    } else if (e.ranks == comm.size()) {
      merged.push_back(e.prefix + "all " + std::to_string(e.total) + " " + e.text);
    }
  }
  return merged;
}

}  // namespace apertura::engine
