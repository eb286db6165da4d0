#include "core/sim/visibility_sink.h"

#include <filesystem>
#include <optional>

#include "core/engine/interrupt.h"
#include "core/io/replaceable_output.h"
#include "core/io/uvfits_writer.h"
#include "core/util/input_error.h"
#include "core/util/temporary_names.h"

namespace apertura::sim {
namespace {

namespace fs = std::filesystem;

// The MS appears under its final name only when complete.
class AtomicDirectory {
 public:
  AtomicDirectory(const std::string& final_path, bool overwrite)
      : final_(final_path), temp_(temporarySiblingPath(final_path)) {
    std::error_code ec;
    if (fs::exists(final_, ec) && !overwrite) {
      throw InputError(final_, "already exists (use --overwrite to replace it)");
    }
    requireReplaceableMeasurementSet(final_);
    const fs::path dir = fs::path(final_).parent_path();
    if (!dir.empty() && !fs::is_directory(dir, ec)) {
      throw InputError(final_, "cannot create the Measurement Set: the directory " + dir.string() +
                                   " does not exist");
    }
    fs::remove_all(temp_, ec);
  }
  ~AtomicDirectory() {
    std::error_code ec;
    if (!committed_)
      fs::remove_all(temp_, ec);
  }
  const std::string& temp() const { return temp_; }
  const std::string& final() const { return final_; }
  void commit() {
    std::error_code ec;
    const std::string old = temporarySiblingPath(final_) + ".old";
    const bool had_old = fs::exists(final_, ec);
    if (had_old)
      fs::rename(final_, old, ec);
    fs::rename(temp_, final_, ec);
    if (ec)
      throw InputError(final_, "could not move the finished table into place: " + ec.message());
    if (had_old)
      fs::remove_all(old, ec);
    committed_ = true;
  }

 private:
  std::string final_, temp_;
  bool committed_ = false;
};

// Runs `f`, an operation on the temporary table, with its errors naming the final path: the
// temporary name means nothing to users. A ResourceError stays one.
template <typename F>
void underFinalName(const std::string& final_path, F&& f) {
  try {
    f();
  } catch (const ResourceError& e) {
    throw ResourceError(final_path, e.problem());
  } catch (const InputError& e) {
    throw InputError(final_path, e.problem());
  }
}

class MeasurementSetSink final : public VisibilitySink {
 public:
  MeasurementSetSink(const std::string& path, const MsLayout& layout, bool overwrite)
      : target_(path, overwrite) {
    underFinalName(path, [&] { writer_.emplace(target_.temp(), layout); });
  }
  void write(const MsRowBlock& block) override {
    engine::throwIfInterrupted();
    underFinalName(target_.final(), [&] { writer_->write(block); });
  }
  void finish() override {
    writer_->close();
    target_.commit();
  }

 private:
  AtomicDirectory target_;  // declared first: destroyed after the writer has closed the table
  std::optional<MeasurementSetWriter> writer_;
};

class UvfitsSink final : public VisibilitySink {
 public:
  UvfitsSink(const std::string& path, const MsLayout& layout, const UvfitsWriteOptions& options)
      : writer_(path, layout, options) {}
  void write(const MsRowBlock& block) override {
    engine::throwIfInterrupted();
    writer_.write(block);
  }
  void finish() override { writer_.close(); }

 private:
  UvfitsWriter writer_;
};

}  // namespace

OutputFormat outputFormatForPath(const std::string& path) {
  return hasUvfitsExtension(path) ? OutputFormat::Uvfits : OutputFormat::MeasurementSet;
}

const char* outputFormatName(OutputFormat format) {
  return format == OutputFormat::Uvfits ? "UVFITS" : "Measurement Set";
}

std::unique_ptr<VisibilitySink> openVisibilitySink(OutputFormat format, const std::string& path,
                                                   const MsLayout& layout,
                                                   const SinkOptions& options) {
  removeStaleTemporariesBeside(path);
  if (format == OutputFormat::Uvfits) {
    UvfitsWriteOptions o;
    o.overwrite = options.overwrite;
    o.groups = options.rows_per_spectral_window;
    o.ut1_minus_utc_s = options.ut1_minus_utc_s;
    o.tai_minus_utc_s = options.tai_minus_utc_s;
    return std::make_unique<UvfitsSink>(path, layout, o);
  }
  return std::make_unique<MeasurementSetSink>(path, layout, options.overwrite);
}

}  // namespace apertura::sim
