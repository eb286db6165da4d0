#include "core/rml/detail/parallel_sum.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace apertura::rml::detail {

void runParallelBlocks(std::size_t num_blocks, void (*run)(void* context, std::size_t block),
                       void* context) {
  // A grain of one block: each is already 2^16 elements of work.
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, num_blocks, 1),
                    [run, context](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t b = r.begin(); b != r.end(); ++b)
                        run(context, b);
                    });
}

}  // namespace apertura::rml::detail
