#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>

namespace apertura::engine {

// Accelerator memory in use, for telemetry (ResourceSample::gpu_bytes). Device buffers live inside
// the backend's operator (core/imaging), which knows nothing of the engine, so the pipeline
// registers each operator's byte count here while the operator exists; the engine's resource
// sampler reads the total from its own thread. Sources must be thread-safe (an atomic read).
class DeviceMemoryGauge {
 public:
  using Source = std::function<std::uint64_t()>;

  // Unregisters its source when destroyed (RAII, so an exception cannot leave a dangling source).
  class Registration {
   public:
    Registration() = default;
    ~Registration() { reset(); }
    Registration(Registration&& other) noexcept : id_(other.id_) { other.id_ = 0; }
    Registration& operator=(Registration&& other) noexcept;
    Registration(const Registration&) = delete;
    Registration& operator=(const Registration&) = delete;
    void reset();

   private:
    friend class DeviceMemoryGauge;
    explicit Registration(std::uint64_t id) : id_(id) {}
    std::uint64_t id_ = 0;
  };

  static DeviceMemoryGauge& instance();
  [[nodiscard]] Registration add(Source source);
  std::uint64_t total() const;

 private:
  void remove(std::uint64_t id);

  mutable std::mutex mutex_;
  std::map<std::uint64_t, Source> sources_;
  std::uint64_t next_id_ = 1;
};

}  // namespace apertura::engine
