#include "app/cli/snapshot_writer.h"

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "core/io/fits_cube_io.h"
#include "core/io/fits_image_io.h"
#include "core/pipeline/image_header.h"
#include "core/util/input_error.h"

namespace apertura::cli {

namespace fs = std::filesystem;

namespace {

// Image names come from the engine, but a file name must never escape the folder.
std::string safeName(const std::string& name) {
  std::string out;
  for (char c : name)
    out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' ? c : '_';
  return out.empty() ? "image" : out;
}

// A cube run's snapshot holds every plane: written as a FITS cube (FREQ axis, one beam per plane).
void writeCubeSnapshot(const std::string& path, const engine::ImageSnapshot& image) {
  const std::size_t plane = static_cast<std::size_t>(image.nx) * static_cast<std::size_t>(image.ny);
  if (image.nx <= 0 || image.ny <= 0 ||
      image.pixels.size() != plane * static_cast<std::size_t>(image.planes) ||
      image.plane_frequencies_hz.size() != static_cast<std::size_t>(image.planes))
    throw InputError(path, "cube snapshot '" + image.name + "' has no consistent planes");
  FitsCube c;
  c.header = pipeline::snapshotHeader(image);
  c.planes = image.planes;
  c.pixels.assign(image.pixels.begin(), image.pixels.end());
  c.frequencies_hz = image.plane_frequencies_hz;
  if (image.plane_beams.size() == static_cast<std::size_t>(image.planes)) {
    for (const auto& b : image.plane_beams)
      c.beams.push_back(ImageBeam{b.major_rad, b.minor_rad, b.pa_rad});
  }
  writeFitsCube(path, c);  // atomic, as writeFitsImage
}

}  // namespace

SnapshotWriter::SnapshotWriter(std::string dir) : dir_(std::move(dir)) {
  std::error_code ec;
  if (!fs::exists(dir_, ec))
    fs::create_directories(dir_, ec);
  if (ec)
    throw InputError("--snapshot-dir " + dir_, "cannot create the folder: " + ec.message());
  if (!fs::is_directory(dir_, ec))
    throw InputError("--snapshot-dir " + dir_, "exists but is not a folder");
  dir_ = fs::absolute(dir_, ec).lexically_normal().string();
}

std::string SnapshotWriter::pathFor(const engine::ImageSnapshot& image) const {
  char suffix[32];
  if (image.iteration >= 0)
    std::snprintf(suffix, sizeof suffix, "%06d", image.iteration);
  else
    std::snprintf(suffix, sizeof suffix, "init");
  return (fs::path(dir_) / (safeName(image.name) + "-" + suffix + ".fits")).string();
}

std::string SnapshotWriter::write(const engine::ImageSnapshot& image) const {
  std::string path = pathFor(image);
  if (image.planes > 1) {
    writeCubeSnapshot(path, image);
    return path;
  }
  if (image.nx <= 0 || image.ny <= 0 ||
      image.pixels.size() != static_cast<std::size_t>(image.nx) * image.ny)
    throw InputError(path, "snapshot '" + image.name + "' has no consistent pixels");
  // The same header as the run's outputs (phase centre at pixel (nx/2, ny/2)).
  FitsImage f = pipeline::snapshotHeader(image);
  f.pixels.assign(image.pixels.begin(), image.pixels.end());
  if (image.beam_major_rad > 0.0)
    f.beam = ImageBeam{image.beam_major_rad, image.beam_minor_rad, image.beam_pa_rad};
  writeFitsImage(path, f);  // atomic: temporary sibling, then rename
  return path;
}

}  // namespace apertura::cli
