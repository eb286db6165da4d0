#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/rml/function.h"

namespace apertura::rml {

struct LbfgsHistoryOptions {
  int max_corrections = 10;  // m: correction pairs (s, y) kept in total
  // Pairs kept in RAM (the newest ones); the older ones spill to disk. <= 0: derived from
  // memory_threshold_bytes, or all m in RAM when that is 0 too.
  int in_memory_limit = 0;
  // RAM the history may use when in_memory_limit is not set: the history stays all in RAM (the
  // vectorised two-loop recursion) when its 2 m image vectors fit, otherwise as many pairs as
  // fit stay resident and the rest are streamed from disk one pair at a time. 0 = no limit.
  std::uint64_t memory_threshold_bytes = 0;
  // Store the pairs in float: half the RAM and half the spill, at float precision in the
  // curvature pairs (the two-loop recursion still accumulates its dot products in double).
  bool float_storage = false;
  // Where the spill file goes (a unique subdirectory is created inside and removed when the
  // history is destroyed). Empty: $TMPDIR, else /tmp.
  std::string scratch_dir;
};

// The L-BFGS correction pairs in a ring: the newest `residentCapacity()` pairs in RAM, the older
// ones in a ring file of fixed-size slots, written with pwrite and read back zero-copy by mapping
// one pair at a time (unmapped after each direction, so at most one spilled pair is resident).
// The two-loop recursion runs the same arithmetic on every pair wherever it lives, so results
// are bitwise identical with and without spill. Image-sized buffers are allocated once, at
// construction, and reused.
class LbfgsHistory {
 public:
  LbfgsHistory(std::size_t dimension, const LbfgsHistoryOptions& options);
  ~LbfgsHistory();
  // Whether this history is the one `LbfgsHistory(dimension, options)` would build (then clear()
  // makes it as good as new).
  bool fits(std::size_t dimension, const LbfgsHistoryOptions& options) const;
  LbfgsHistory(const LbfgsHistory&) = delete;
  LbfgsHistory& operator=(const LbfgsHistory&) = delete;

  // What push() measured: s.y, |s| and |y| in double, and whether the pair was kept.
  struct PushResult {
    double sy = 0.0;
    double s_norm = 0.0;
    double y_norm = 0.0;
    bool accepted = false;
  };
  // Forms s = x_new - x and y = g_new - g straight into the next slot (in the storage precision)
  // and keeps them as the newest pair, dropping the oldest when m pairs are held, if they meet
  // the curvature condition s.y > 1e-12 |s| |y| (computed from the double differences) and, for
  // float pairs, the rounded pair's s.y is positive (detail/pair_differences.h). A
  // rejected pair leaves the history (RAM and spill file) as it was. No image-sized buffer
  // outside the history is needed: without a free slot, one pass judges the pair and a second
  // stores it in the slot given up by the pair dropped or spilled.
  PushResult push(const Vector& x_new, const Vector& x, const Vector& g_new, const Vector& g);
  void clear();
  bool empty() const { return size_ == 0; }
  int size() const { return size_; }

  // In place: on entry d holds the (projected) gradient q, on return -H q, by the two-loop
  // recursion (newest pair first) with the Shanno-Phua scaling, in double (float pairs are
  // widened element by element).
  void direction(Vector& d);

  int maxCorrections() const { return capacity_; }
  int residentCapacity() const { return resident_capacity_; }
  int spillCapacity() const { return capacity_ - resident_capacity_; }
  bool spills() const { return spillCapacity() > 0; }
  // Bytes the (unnamed) spill file holds on disk: 0 until the first pair spills.
  std::uint64_t spillFileBytes() const;
  std::uint64_t spillBytes() const;  // bytes of pairs currently on disk

  bool floatStorage() const { return float_; }
  std::size_t elementBytes() const { return float_ ? sizeof(float) : sizeof(double); }

  // Pairs held in RAM for a history of `options` over vectors of `dimension` doubles.
  static int residentPairs(std::size_t dimension, const LbfgsHistoryOptions& options);

 private:
  // One correction pair, stored in double (s, y) or in float (fs, fy).
  struct Pair {
    Vector s, y;
    std::vector<float> fs, fy;
    double rho = 0.0;
    void allocate(std::size_t n, bool as_float);
    // s and y in the storage precision T.
    template <typename T>
    const T* storedS() const {
      if constexpr (std::is_same_v<T, float>) {
        return fs.data();
      } else {
        return s.data();
      }
    }
    template <typename T>
    const T* storedY() const {
      if constexpr (std::is_same_v<T, float>) {
        return fy.data();
      } else {
        return y.data();
      }
    }
  };
  // A pair where the two-loop recursion reads it: a resident pair, or a spilled one mapped from
  // the spill file (zero-copy; the mapping is released after each direction()).
  template <typename T>
  struct PairView {
    const T* s = nullptr;
    const T* y = nullptr;
    double rho = 0.0;
  };
  class SpillFile;

  // Logical index 0 = oldest pair held, size_-1 = newest.
  bool isResident(int logical) const { return logical >= size_ - resident_count_; }
  Pair& residentPair(int logical);
  template <typename T>
  PairView<T> view(int logical);
  void spillOldestResident();
  // The slot the next pair goes to (free only while fewer than m pairs are held).
  Pair& nextSlot();
  template <typename T>
  void twoLoop(Vector& d);

  std::size_t n_;
  bool float_;
  int capacity_;
  int resident_capacity_;
  std::string scratch_root_;
  std::unique_ptr<SpillFile> file_;

  std::vector<Pair> resident_;  // ring of resident_capacity_ slots
  int resident_oldest_ = 0;     // slot of the oldest resident pair
  int resident_count_ = 0;
  std::vector<double> spilled_rho_;  // ring of spillCapacity() slots, same order as the file
  int spilled_oldest_ = 0;           // file slot of the oldest spilled pair
  int spilled_count_ = 0;
  int size_ = 0;

  std::vector<double> alpha_;
};

}  // namespace apertura::rml
