#pragma once

#include <QImage>

#include <memory>
#include <vector>

#include "gui/colormap/colormap.h"
#include "gui/view/image_data.h"
#include "gui/view/image_scaling.h"

namespace apertura::gui {

enum class ClipMode { MinMax, Percentile, User };

// What the user chose in the toolbar; everything that changes the picture but not the geometry.
struct DisplaySettings {
  ColormapKind colormap = ColormapKind::Inferno;
  bool inverted = false;
  StretchParameters stretch;
  ClipMode clip = ClipMode::Percentile;
  double clip_percent = 99.5;  // central fraction kept, for ClipMode::Percentile
  double user_min = 0.0;       // for ClipMode::User
  double user_max = 1.0;
};

bool operator==(const DisplaySettings& a, const DisplaySettings& b);
inline bool operator!=(const DisplaySettings& a, const DisplaySettings& b) {
  return !(a == b);
}

// Turns an image and display settings into an RGB picture, caching every intermediate so that
// panning and zooming never touch the pixels, and a colormap change skips the statistics.
// Percentiles come from a subsample of at most kMaxSamples pixels so 4096^2 images stay quick.
class ImageRenderer {
 public:
  static constexpr std::size_t kMaxSamples = std::size_t{1} << 20;
  static constexpr int kLevels = 65536;  // quantisation of the clipped value before the lookup

  void setImage(std::shared_ptr<const ImageData> image);
  const std::shared_ptr<const ImageData>& image() const { return image_; }

  void setSettings(const DisplaySettings& settings);
  const DisplaySettings& settings() const { return settings_; }

  // nx x ny RGB32 picture with north up (row 0 of the data at the bottom). Null without data.
  const QImage& picture();

  // Values mapped to the bottom and top of the colormap under the current clip settings;
  // symmetric about zero for a diverging colormap unless the user gave the range.
  ValueRange clipRange();
  ValueRange dataRange() const { return data_range_; }
  // Finite pixels (or a subsample of them) for percentiles and the histogram.
  const std::vector<float>& samples() const { return samples_; }
  ColorTable colorTable() const { return colormapTable(settings_.colormap, settings_.inverted); }

  // Display level in [0, 1] of a pixel value, as used for the picture (stretch included).
  double levelOf(double value);

  // How often the picture was recomputed; lets tests prove that zoom and pan reuse the cache.
  int renderCount() const { return render_count_; }

  QRgb blankColor() const { return blank_color_; }

 private:
  void updateClip();
  void updateLookup();

  std::shared_ptr<const ImageData> image_;
  DisplaySettings settings_;
  std::vector<float> samples_;
  ValueRange data_range_;
  ValueRange clip_;
  std::vector<double> equalization_;
  std::vector<QRgb> lookup_;
  QImage picture_;
  bool clip_dirty_ = true;
  bool lookup_dirty_ = true;
  bool picture_dirty_ = true;
  int render_count_ = 0;
  QRgb blank_color_ = qRgb(48, 48, 56);
};

}  // namespace apertura::gui
