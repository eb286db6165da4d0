#include "core/io/prefetch_source.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

namespace apertura {

namespace {

struct Item {
  std::uint64_t generation = 0;
  bool end = false;          // end of the pass
  std::exception_ptr error;  // the I/O thread failed
  VisibilityChunk chunk;
};

}  // namespace

struct PrefetchSource::State {
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Item> queue;
  std::size_t depth = 2;
  const CancellationToken* cancel = nullptr;
  std::uint64_t generation = 0;  // bumped by rewind(); items of older generations are stale
  bool opened = false;
  bool stop = false;
  std::exception_ptr open_error;
  SourceInfo info;
  std::vector<std::string> warnings;
  std::vector<VisibilityChunk> spare;  // recycled chunk buffers (keeps allocations flat)
  std::thread thread;
};

PrefetchSource::PrefetchSource(Opener open, int depth, const CancellationToken* cancel)
    : state_(std::make_unique<State>()) {
  state_->depth = static_cast<std::size_t>(std::clamp(depth, 1, 4));
  state_->cancel = cancel;
  state_->thread = std::thread([this, o = std::move(open)]() { run(o); });
  std::unique_lock<std::mutex> lock(state_->mutex);
  state_->changed.wait(lock, [&] { return state_->opened; });
  if (state_->open_error) {
    lock.unlock();
    state_->thread.join();
    std::rethrow_exception(state_->open_error);
  }
}

PrefetchSource::~PrefetchSource() {
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->stop = true;
  }
  state_->changed.notify_all();
  if (state_->thread.joinable())
    state_->thread.join();
}

void PrefetchSource::run(const Opener& open) {
  State& s = *state_;
  // Nothing may escape this thread (std::terminate): every exception of the inner source, its
  // info and warnings included, goes to the consumer, who rethrows it.
  std::unique_ptr<VisibilitySource> source;
  SourceInfo info;
  std::vector<std::string> open_warnings;
  try {
    source = open();
    info = source->info();
    open_warnings = source->warnings();
  } catch (...) {
    std::lock_guard<std::mutex> lock(s.mutex);
    s.open_error = std::current_exception();
    s.opened = true;
    s.changed.notify_all();
    return;
  }
  std::uint64_t produced_for = 0;  // generation the inner source is positioned for
  bool at_end = false;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    s.info = std::move(info);
    s.warnings = std::move(open_warnings);
    s.opened = true;
  }
  s.changed.notify_all();
  std::unique_lock<std::mutex> lock(s.mutex);
  while (true) {
    s.changed.wait(lock, [&] {
      return s.stop || s.generation != produced_for || (!at_end && s.queue.size() < s.depth);
    });
    if (s.stop)
      return;
    const std::uint64_t gen = s.generation;
    Item item;
    item.generation = gen;
    if (!s.spare.empty()) {
      item.chunk = std::move(s.spare.back());
      s.spare.pop_back();
    }
    lock.unlock();
    try {
      if (gen != produced_for) {
        source->rewind();
        produced_for = gen;
        at_end = false;
      }
      throwIfCancelled(s.cancel);
      item.end = !source->next(item.chunk);
    } catch (...) {
      item.error = std::current_exception();
    }
    std::vector<std::string> warnings;
    bool have_warnings = false;
    try {  // also after a failed read: the warnings so far still describe the pass
      warnings = source->warnings();
      have_warnings = true;
    } catch (...) {
      if (!item.error)
        item.error = std::current_exception();
    }
    lock.lock();
    if (have_warnings)
      s.warnings = std::move(warnings);
    if (item.end || item.error)
      at_end = true;
    if (item.generation == s.generation) {
      s.queue.push_back(std::move(item));
      s.changed.notify_all();
    }
  }
}

const SourceInfo& PrefetchSource::info() const {
  return state_->info;
}

void PrefetchSource::rewind() {
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    ++state_->generation;
    for (auto& item : state_->queue)
      state_->spare.push_back(std::move(item.chunk));
    state_->queue.clear();
  }
  state_->changed.notify_all();
}

bool PrefetchSource::next(VisibilityChunk& chunk) {
  State& s = *state_;
  std::unique_lock<std::mutex> lock(s.mutex);
  // Nothing notifies when the token is cancelled, so poll it while waiting.
  while (!s.changed.wait_for(lock, std::chrono::milliseconds(20), [&] {
    return !s.queue.empty() || (s.cancel != nullptr && s.cancel->cancelled());
  })) {
  }
  throwIfCancelled(s.cancel);
  Item item = std::move(s.queue.front());
  s.queue.pop_front();
  s.changed.notify_all();
  if (item.error) {
    // Keep failing: the same error again on the next call until rewind().
    s.queue.push_front(Item{item.generation, false, item.error, {}});
    std::rethrow_exception(item.error);
  }
  if (item.end) {
    s.queue.push_front(Item{item.generation, true, nullptr, {}});
    return false;
  }
  std::swap(chunk, item.chunk);
  s.spare.push_back(std::move(item.chunk));
  return true;
}

std::vector<std::string> PrefetchSource::warnings() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->warnings;
}

}  // namespace apertura
