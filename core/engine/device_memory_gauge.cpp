#include "core/engine/device_memory_gauge.h"

#include <utility>

namespace apertura::engine {

DeviceMemoryGauge::Registration& DeviceMemoryGauge::Registration::operator=(
    Registration&& other) noexcept {
  if (this != &other) {
    reset();
    id_ = other.id_;
    other.id_ = 0;
  }
  return *this;
}

void DeviceMemoryGauge::Registration::reset() {
  if (id_ != 0)
    DeviceMemoryGauge::instance().remove(id_);
  id_ = 0;
}

DeviceMemoryGauge& DeviceMemoryGauge::instance() {
  static DeviceMemoryGauge gauge;
  return gauge;
}

DeviceMemoryGauge::Registration DeviceMemoryGauge::add(Source source) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::uint64_t id = next_id_++;
  sources_.emplace(id, std::move(source));
  return Registration(id);
}

std::uint64_t DeviceMemoryGauge::total() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::uint64_t sum = 0;
  for (const auto& [id, source] : sources_)
    sum += source();
  return sum;
}

void DeviceMemoryGauge::remove(std::uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  sources_.erase(id);
}

}  // namespace apertura::engine
