#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

// Deterministic parallel loops over image-sized vectors (internal to core/rml; oneTBB stays in
// parallel_sum.cpp). The index range is cut into blocks of a fixed number of elements, a constant
// independent of the number of threads; a reduction sums each block serially in index order (in
// parallel across blocks), then adds the block sums serially in block order. The result is thus
// bitwise the same whatever the number of threads, and a vector of one block gives exactly the
// serial index-order sum. Ranges of at most one block run on the calling thread, without oneTBB.
namespace apertura::rml::detail {

// Elements per block: 512 KiB of doubles.
inline constexpr std::size_t kParallelBlock = std::size_t(1) << 16;

inline std::size_t parallelBlockCount(std::size_t n) {
  return (n + kParallelBlock - 1) / kParallelBlock;
}

// Calls run(context, b) for every b in [0, num_blocks), in parallel (oneTBB) in any order.
void runParallelBlocks(std::size_t num_blocks, void (*run)(void* context, std::size_t block),
                       void* context);

namespace parallel_internal {

// body(begin, end, block) over the blocks of [0, n), in parallel.
template <typename Body>
void forEachBlock(std::size_t n, Body& body) {
  struct Context {
    Body* body;
    std::size_t n;
  } context{&body, n};
  runParallelBlocks(
      parallelBlockCount(n),
      [](void* c, std::size_t block) {
        const auto& ctx = *static_cast<const Context*>(c);
        const std::size_t begin = block * kParallelBlock;
        (*ctx.body)(begin, std::min(ctx.n, begin + kParallelBlock), block);
      },
      &context);
}

}  // namespace parallel_internal

// body(begin, end) on sub-ranges covering [0, n) once, in parallel; for element-wise updates
// (whose results do not depend on the partition).
template <typename Body>
void parallelFor(std::size_t n, Body&& body) {
  if (n <= kParallelBlock) {
    if (n > 0)
      body(std::size_t(0), n);
    return;
  }
  auto run = [&body](std::size_t begin, std::size_t end, std::size_t) { body(begin, end); };
  parallel_internal::forEachBlock(n, run);
}

// K sums over [0, n): body(begin, end, sums) adds the terms of elements begin..end-1, in index
// order, to sums (which start at zero for each block); it may also write per-element outputs.
// The block sums are added in block order, starting from the first block's.
template <std::size_t K, typename Body>
std::array<double, K> blockedSums(std::size_t n, Body&& body) {
  std::array<double, K> total{};
  if (n <= kParallelBlock) {
    if (n > 0)
      body(std::size_t(0), n, total);
    return total;
  }
  std::vector<std::array<double, K>> partial(parallelBlockCount(n));
  auto run = [&body, &partial](std::size_t begin, std::size_t end, std::size_t block) {
    std::array<double, K> sums{};
    body(begin, end, sums);
    partial[block] = sums;
  };
  parallel_internal::forEachBlock(n, run);
  total = partial[0];
  for (std::size_t b = 1; b < partial.size(); ++b) {
    for (std::size_t k = 0; k < K; ++k)
      total[k] += partial[b][k];
  }
  return total;
}

// One sum: body(begin, end) returns the sum of the terms of elements begin..end-1, accumulated
// from 0.0 in index order.
template <typename Body>
double blockedSum(std::size_t n, Body&& body) {
  return blockedSums<1>(n, [&body](std::size_t begin, std::size_t end, std::array<double, 1>& s) {
    s[0] = body(begin, end);
  })[0];
}

}  // namespace apertura::rml::detail
