#include "core/rml/lbfgs_history.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "core/rml/detail/pair_differences.h"
#include "core/rml/detail/parallel_sum.h"
#include "core/util/input_error.h"

namespace apertura::rml {

namespace {

std::string systemError() {
  return std::strerror(errno);
}

std::string defaultScratchRoot() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp != nullptr && *tmp != '\0' ? std::string(tmp) : std::string("/tmp");
}

}  // namespace

// A ring of fixed-size slots in one file, each holding s then y (2 n doubles). The file's name
// is removed as soon as it is open: its space returns to the file system when the descriptor
// closes, so no exit path (not even SIGKILL) leaves it behind.
class LbfgsHistory::SpillFile {
 public:
  SpillFile(const std::string& scratch_root, std::size_t n, std::size_t element_bytes)
      : path_(scratch_root + "/apertura-lbfgs-XXXXXX"), bytes_(n * element_bytes) {
    fd_ = ::mkostemp(path_.data(), O_CLOEXEC);
    if (fd_ < 0) {
      throw InputError(scratch_root, "cannot create an L-BFGS spill file there (" + systemError() +
                                         "); set optimizer.scratch_dir");
    }
    ::unlink(path_.c_str());
  }
  ~SpillFile() {
    unmap();
    ::close(fd_);
  }
  std::uint64_t sizeBytes() const {
    struct stat st {};
    return ::fstat(fd_, &st) == 0 ? std::uint64_t(st.st_size) : 0;
  }
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  // s and y of `element_bytes`-sized elements, n of each.
  void write(int slot, const void* s, const void* y) {
    const auto* ps = static_cast<const char*>(s);
    const auto* py = static_cast<const char*>(y);
    transfer(slot, 0, "writing", [&](std::size_t done, std::size_t left, off_t at) {
      return ::pwrite(fd_, ps + done, left, at);
    });
    transfer(slot, 1, "writing", [&](std::size_t done, std::size_t left, off_t at) {
      return ::pwrite(fd_, py + done, left, at);
    });
  }
  // Maps slot `slot` read-only (s then y, contiguous) and returns its start; the previous
  // mapping is released. Pages are populated up front: the recursion reads them sequentially.
  const void* map(int slot) {
    unmap();
    static const off_t page = off_t(::sysconf(_SC_PAGESIZE));
    const off_t offset = off_t(slot) * off_t(2 * bytes_);
    const off_t aligned = offset - offset % page;
    map_bytes_ = std::size_t(offset - aligned) + 2 * bytes_;
    void* p = ::mmap(nullptr, map_bytes_, PROT_READ, MAP_SHARED | MAP_POPULATE, fd_, aligned);
    if (p == MAP_FAILED) {
      map_bytes_ = 0;
      throw InputError(path_, "mapping the L-BFGS spill file failed: " + systemError());
    }
    map_ = p;
    return static_cast<const char*>(p) + (offset - aligned);
  }
  // Releases the mapping: its pages leave this process's resident set.
  void unmap() {
    if (map_ != nullptr)
      ::munmap(map_, map_bytes_);
    map_ = nullptr;
    map_bytes_ = 0;
  }

 private:
  // One vector (`which`: 0 = s, 1 = y) of a slot by pread/pwrite, looping over short transfers.
  template <typename Io>
  void transfer(int slot, int which, const char* verb, Io io) {
    const std::size_t bytes = bytes_;
    const off_t offset = off_t(slot) * off_t(2 * bytes) + off_t(which) * off_t(bytes);
    std::size_t done = 0;
    while (done < bytes) {
      const ssize_t r = io(done, bytes - done, offset + off_t(done));
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0) {
        throw InputError(path_, std::string(verb) + " the L-BFGS spill file failed: " +
                                    (r < 0 ? systemError() : std::string("unexpected end")));
      }
      done += std::size_t(r);
    }
  }

  std::string path_;
  std::size_t bytes_;  // one vector
  int fd_ = -1;
  void* map_ = nullptr;
  std::size_t map_bytes_ = 0;
};

namespace {

// The two-loop recursion's kernels on a stored vector of T (double or float) and the double
// direction, accumulating in double. Resident and spilled pairs go through the same
// kernels: identical arithmetic. Parallel over fixed blocks (detail/parallel_sum.h): bitwise the
// same whatever the number of threads.
template <typename A, typename B>
double dotStored(const A* a, const B* b, std::size_t n) {
  return detail::blockedSum(n, [a, b](std::size_t begin, std::size_t end) {
    double s = 0.0;
    for (std::size_t i = begin; i < end; ++i)
      s += double(a[i]) * double(b[i]);
    return s;
  });
}
template <typename T>
double dotWith(const T* a, const Vector& b) {
  return dotStored(a, b.data(), b.size());
}
// y += a x, or y = -(y + a x) for the recursion's last step (the direction is -H q).
template <bool kNegate, typename T>
void axpyFrom(double a, const T* x, Vector& y) {
  detail::parallelFor(y.size(), [a, x, &y](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const double v = y[i] + a * double(x[i]);
      y[i] = kNegate ? -v : v;
    }
  });
}
// d = scale * d, element by element.
void scaleBy(double scale, Vector& d) {
  detail::parallelFor(d.size(), [scale, &d](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      d[i] *= scale;
  });
}
// d = -d.
void negate(Vector& d) {
  detail::parallelFor(d.size(), [&d](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      d[i] = -d[i];
  });
}

using detail::PairSums;

template <typename T>
PairSums store(const Vector& x_new, const Vector& x, const Vector& g_new, const Vector& g, T* s,
               T* y) {
  return detail::pairDifferences<T, true>(x.size(), x_new.data(), x.data(), g_new.data(), g.data(),
                                          s, y);
}

// The sums only (the pair is judged before a slot is given up for it).
PairSums measure(const Vector& x_new, const Vector& x, const Vector& g_new, const Vector& g) {
  return detail::pairDifferences<double, false>(x.size(), x_new.data(), x.data(), g_new.data(),
                                                g.data(), nullptr, nullptr);
}

}  // namespace

void LbfgsHistory::Pair::allocate(std::size_t n, bool as_float) {
  if (as_float) {
    fs.resize(n);
    fy.resize(n);
  } else {
    s.resize(n);
    y.resize(n);
  }
}

int LbfgsHistory::residentPairs(std::size_t dimension, const LbfgsHistoryOptions& options) {
  const int m = std::max(1, options.max_corrections);
  if (options.in_memory_limit > 0)
    return std::min(m, options.in_memory_limit);
  if (options.memory_threshold_bytes == 0)
    return m;
  const std::uint64_t element = options.float_storage ? sizeof(float) : sizeof(double);
  const std::uint64_t pair_bytes = 2 * std::uint64_t(std::max<std::size_t>(1, dimension)) * element;
  if (std::uint64_t(m) * pair_bytes <= options.memory_threshold_bytes)
    return m;  // all in RAM: nothing mapped
  // Streaming maps one spilled pair at a time, resident while it is read: one pair fewer.
  const std::uint64_t fit = options.memory_threshold_bytes / pair_bytes;
  return int(std::clamp<std::uint64_t>(fit > 0 ? fit - 1 : 0, 1, std::uint64_t(m)));
}

LbfgsHistory::LbfgsHistory(std::size_t dimension, const LbfgsHistoryOptions& options)
    : n_(dimension),
      float_(options.float_storage),
      capacity_(std::max(1, options.max_corrections)),
      resident_capacity_(residentPairs(dimension, options)),
      scratch_root_(options.scratch_dir.empty() ? defaultScratchRoot() : options.scratch_dir),
      resident_(std::size_t(resident_capacity_)),
      spilled_rho_(std::size_t(capacity_ - resident_capacity_)) {
  alpha_.reserve(std::size_t(capacity_));
  // Every resident slot is allocated once, up front: RAM use is the same
  // at the first iteration as at the last, and push() only swaps or overwrites buffers.
  for (Pair& p : resident_)
    p.allocate(n_, float_);
}

LbfgsHistory::~LbfgsHistory() = default;

bool LbfgsHistory::fits(std::size_t dimension, const LbfgsHistoryOptions& options) const {
  const std::string root = options.scratch_dir.empty() ? defaultScratchRoot() : options.scratch_dir;
  return n_ == dimension && float_ == options.float_storage &&
         capacity_ == std::max(1, options.max_corrections) &&
         resident_capacity_ == residentPairs(dimension, options) && scratch_root_ == root;
}

std::uint64_t LbfgsHistory::spillBytes() const {
  return std::uint64_t(spilled_count_) * 2 * n_ * elementBytes();
}

std::uint64_t LbfgsHistory::spillFileBytes() const {
  return file_ ? file_->sizeBytes() : 0;
}

void LbfgsHistory::clear() {
  // Buffers and the spill file are kept for reuse.
  resident_oldest_ = resident_count_ = 0;
  spilled_oldest_ = spilled_count_ = 0;
  size_ = 0;
}

LbfgsHistory::Pair& LbfgsHistory::residentPair(int logical) {
  const int k = logical - spilled_count_;
  return resident_[std::size_t((resident_oldest_ + k) % resident_capacity_)];
}

template <typename T>
LbfgsHistory::PairView<T> LbfgsHistory::view(int logical) {
  if (isResident(logical)) {
    const Pair& p = residentPair(logical);
    return {p.storedS<T>(), p.storedY<T>(), p.rho};
  }
  const int slot = (spilled_oldest_ + logical) % spillCapacity();
  const auto* s = static_cast<const T*>(file_->map(slot));
  return {s, s + n_, spilled_rho_[std::size_t(slot)]};
}

void LbfgsHistory::spillOldestResident() {
  if (!file_)
    file_ = std::make_unique<SpillFile>(scratch_root_, n_, elementBytes());
  Pair& oldest = resident_[std::size_t(resident_oldest_)];
  const int slot = (spilled_oldest_ + spilled_count_) % spillCapacity();
  if (float_) {
    file_->write(slot, oldest.fs.data(), oldest.fy.data());
  } else {
    file_->write(slot, oldest.s.data(), oldest.y.data());
  }
  spilled_rho_[std::size_t(slot)] = oldest.rho;
  ++spilled_count_;
  resident_oldest_ = (resident_oldest_ + 1) % resident_capacity_;
  --resident_count_;
  // The slot's vectors stay allocated: push() reuses them for the new pair.
}

LbfgsHistory::Pair& LbfgsHistory::nextSlot() {
  return resident_[std::size_t((resident_oldest_ + resident_count_) % resident_capacity_)];
}

LbfgsHistory::PushResult LbfgsHistory::push(const Vector& x_new, const Vector& x,
                                            const Vector& g_new, const Vector& g) {
  // A free slot takes the pair in one pass. Otherwise the pair is judged first (one pass over the
  // four vectors), and only a kept pair drops or spills the oldest one and is stored (a second
  // pass): a rejected pair changes nothing, in RAM or on disk.
  const bool free_slot = size_ < capacity_ && resident_count_ < resident_capacity_;
  const auto into = [&](Pair& slot) {
    return float_ ? store(x_new, x, g_new, g, slot.fs.data(), slot.fy.data())
                  : store(x_new, x, g_new, g, slot.s.data(), slot.y.data());
  };
  PairSums diff = free_slot ? into(nextSlot()) : measure(x_new, x, g_new, g);
  PushResult result;
  result.sy = diff.sy;
  result.s_norm = std::sqrt(diff.ss);
  result.y_norm = std::sqrt(diff.yy);
  result.accepted = detail::keepsPair(diff, float_);
  if (!result.accepted)
    return result;
  if (!free_slot) {
    if (size_ == capacity_) {  // drop the oldest pair
      if (spilled_count_ > 0) {
        spilled_oldest_ = (spilled_oldest_ + 1) % spillCapacity();
        --spilled_count_;
      } else {
        resident_oldest_ = (resident_oldest_ + 1) % resident_capacity_;
        --resident_count_;
      }
      --size_;
    }
    if (resident_count_ == resident_capacity_)
      spillOldestResident();
    into(nextSlot());  // the same sums as measured
  }
  nextSlot().rho = detail::pairRho(diff, float_);
  ++resident_count_;
  ++size_;
  return result;
}

void LbfgsHistory::direction(Vector& d) {
  if (float_) {
    twoLoop<float>(d);
  } else {
    twoLoop<double>(d);
  }
}

template <typename T>
void LbfgsHistory::twoLoop(Vector& d) {
  const int k = size_;
  if (k == 0) {
    negate(d);
    return;
  }
  alpha_.assign(std::size_t(k), 0.0);
  // Newest to oldest: the spilled pairs are streamed last; the oldest one stays mapped for the
  // first step of the second loop.
  PairView<T> p;
  for (int j = k - 1; j >= 0; --j) {
    p = view<T>(j);
    alpha_[std::size_t(j)] = p.rho * dotWith(p.s, d);
    axpyFrom<false>(-alpha_[std::size_t(j)], p.y, d);
  }
  {
    const Pair& newest = residentPair(k - 1);
    const T* s = newest.storedS<T>();
    const T* y = newest.storedY<T>();
    const double gamma = dotStored(s, y, n_) / dotStored(y, y, n_);
    scaleBy(gamma, d);
  }
  for (int j = 0; j < k; ++j) {
    if (j > 0)
      p = view<T>(j);  // pair 0 is still in p from the first loop
    const double beta = p.rho * dotWith(p.y, d);
    if (j + 1 < k) {
      axpyFrom<false>(alpha_[std::size_t(j)] - beta, p.s, d);
    } else {
      axpyFrom<true>(alpha_[std::size_t(j)] - beta, p.s, d);  // the sign folded into the last step
    }
  }
  if (file_)
    file_->unmap();  // spilled pages leave the resident set between directions
}

}  // namespace apertura::rml
