#include "core/imaging/tile_plan.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <stdexcept>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace apertura::imaging {

namespace {

constexpr int kTs = TilePlan::kTileSize;

// Calls f(s, gu, gv, gw) for the samples [lo, hi) of a block in order. Row and channel are kept
// as counters (no division per sample); the products are those of BlockScales::coordinates, so
// the values are bitwise the same.
template <typename F>
void forEachSample(const BlockScales& sc, std::size_t lo, std::size_t hi, F&& f) {
  const std::size_t nchan = sc.block.num_channels;
  if (lo >= hi || nchan == 0)
    return;
  const bool has_w = !sc.scale_w.empty();
  const double* su = sc.scale_u.data();
  const double* sv = sc.scale_v.data();
  const double* sw = sc.scale_w.data();
  const double w_offset = sc.w_offset;
  std::size_t r = lo / nchan, c = lo % nchan;
  for (std::size_t s = lo; s < hi; ++s) {
    const double* uvw = sc.block.uvw_m + 3 * r;
    const double gu = uvw[0] * su[c];
    const double gv = uvw[1] * sv[c];
    const double gw = has_w ? uvw[2] * sw[c] - w_offset : 0.0;
    f(s, gu, gv, gw);
    if (++c == nchan) {
      c = 0;
      ++r;
    }
  }
}

// The sort key of a sample: (w group, tile row, tile column).
struct KeyMaker {
  int support, grid_u, grid_v, w_support, tiles_u, tiles_v, groups;
  double inv_u, inv_v;

  std::uint32_t operator()(double gu, double gv, double gw) const {
    const int tu = firstTap(gu, support, grid_u, inv_u) / kTs;
    const int tv = firstTap(gv, support, grid_v, inv_v) / kTs;
    int group = 0;
    if (groups > 1) {
      group = int(fastCeil(gw - 0.5 * w_support));
      group = std::min(std::max(group, 0), groups - 1);
    }
    return std::uint32_t((std::size_t(group) * tiles_v + tv) * tiles_u + tu);
  }
};

// Resizes a vector that is about to be written in scattered order. Linux: the storage is first
// marked for transparent huge pages, so the scattered writes (one per sample, all over tens of MB)
// miss the TLB far less often; a hint only, harmless where THP is off.
template <typename V>
void resizeForScatter(V& v, std::size_t n) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::size_t kHuge = std::size_t(2) << 20;
  if (n * sizeof(typename V::value_type) >= 4 * kHuge && v.capacity() < n) {
    V fresh;
    fresh.reserve(n);  // allocated, not yet touched
    // Offsets from the start, so no integer is turned back into a pointer.
    char* base = reinterpret_cast<char*>(fresh.data());
    const std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(base);
    const std::uintptr_t end = addr + n * sizeof(typename V::value_type);
    const std::size_t lo = ((addr + kHuge - 1) & ~(kHuge - 1)) - addr;
    const std::size_t hi = (end & ~(kHuge - 1)) - addr;
    if (end >= addr + kHuge && hi > lo)
      madvise(base + lo, hi - lo, MADV_HUGEPAGE);
    v.swap(fresh);
  }
#endif
  v.resize(n);
}

}  // namespace

// A stable counting sort in three passes over contiguous chunks of the block: (1) each chunk
// computes its samples' keys and histogram, (2) a prefix over (key, chunk) gives each chunk its
// write cursor per key, (3) each chunk scatters its samples, with their tap positions computed
// from the sequentially read uvw. The result does not depend on the chunk count, so it is the
// same whatever the thread count. Reading uvw in sample order and writing in tile order (instead
// of gathering uvw in tile order) keeps the loads streaming; the scattered stores do not stall.
TilePlan buildTilePlan(const BlockScales& scales, int support, int grid_u, int grid_v,
                       int w_support, int w_groups, bool store_positions) {
  TilePlan plan;
  plan.tiles_u = (grid_u + kTs - 1) / kTs;
  plan.tiles_v = (grid_v + kTs - 1) / kTs;
  plan.groups = std::max(1, w_groups);
  const std::size_t n = scales.block.numSamples();
  if (n > 0xffffffffu)
    throw std::length_error("a visibility block holds more than 2^32 samples");
  const std::size_t keys = plan.numTiles() * plan.groups;
  const KeyMaker key_of{support,      grid_u,      grid_v,       w_support,   plan.tiles_u,
                        plan.tiles_v, plan.groups, 1.0 / grid_u, 1.0 / grid_v};
  const bool positions = store_positions && plan.groups == 1;

  // Chunks: enough for the arena's threads (a few per thread to balance), each large against the
  // key count so the per-chunk histograms stay small next to the samples.
  const std::size_t threads = std::size_t(std::max(1, tbb::this_task_arena::max_concurrency()));
  const std::size_t chunks = std::max<std::size_t>(
      1, std::min({4 * threads, n / 65536, n / std::max<std::size_t>(keys, 1)}));
  std::vector<std::size_t> bound(chunks + 1);
  for (std::size_t c = 0; c <= chunks; ++c)
    bound[c] = n * c / chunks;

  std::vector<std::uint32_t> key(n);
  std::vector<std::vector<std::uint32_t>> count(chunks);
  tbb::parallel_for(std::size_t(0), chunks, [&](std::size_t c) {
    count[c].assign(keys, 0);
    std::uint32_t* cnt = count[c].data();
    std::uint32_t* out = key.data();
    const KeyMaker km = key_of;
    forEachSample(scales, bound[c], bound[c + 1],
                  [out, cnt, km](std::size_t s, double gu, double gv, double gw) {
                    const std::uint32_t k = km(gu, gv, gw);
                    out[s] = k;
                    ++cnt[k];
                  });
  });

  // Cursor of chunk c for key k: all samples of smaller keys, then those of key k in earlier
  // chunks.
  plan.start.assign(keys + 1, 0);
  std::uint32_t offset = 0;
  for (std::size_t k = 0; k < keys; ++k) {
    plan.start[k] = offset;
    for (std::size_t c = 0; c < chunks; ++c) {
      const std::uint32_t here = count[c][k];
      count[c][k] = offset;
      offset += here;
    }
  }
  plan.start[keys] = offset;

  resizeForScatter(plan.order, n);
  if (positions)
    resizeForScatter(plan.positions, n);
  tbb::parallel_for(std::size_t(0), chunks, [&](std::size_t c) {
    std::uint32_t* cursor = count[c].data();
    const std::uint32_t* keys_in = key.data();
    std::uint32_t* order = plan.order.data();
    if (!positions) {
      for (std::size_t s = bound[c]; s < bound[c + 1]; ++s)
        order[cursor[keys_in[s]]++] = std::uint32_t(s);
      return;
    }
    TapPosition* pos = plan.positions.data();
    const int w = support, nu = grid_u, nv = grid_v;
    const double inv_u = 1.0 / grid_u, inv_v = 1.0 / grid_v;
    forEachSample(scales, bound[c], bound[c + 1], [=](std::size_t s, double gu, double gv, double) {
      double yu, yv;
      const int iu = firstTap(gu, w, nu, inv_u, &yu);
      const int iv = firstTap(gv, w, nv, inv_v, &yv);
      const std::uint32_t d = cursor[keys_in[s]]++;
      order[d] = std::uint32_t(s);
      pos[d] = TapPosition{float(yu), float(yv), std::uint16_t(iu % kTs), std::uint16_t(iv % kTs)};
    });
  });
  return plan;
}

}  // namespace apertura::imaging
