#include "gui/view/image_renderer.h"

#include <algorithm>
#include <cmath>
#include <thread>

namespace apertura::gui {
namespace {

constexpr int kEqualizationBins = 4096;

bool sameStretch(const StretchParameters& a, const StretchParameters& b) {
  return a.kind == b.kind && a.power_exponent == b.power_exponent &&
         a.log_exponent == b.log_exponent && a.asinh_softening == b.asinh_softening;
}

bool sameClip(const DisplaySettings& a, const DisplaySettings& b) {
  return a.clip == b.clip && a.clip_percent == b.clip_percent && a.user_min == b.user_min &&
         a.user_max == b.user_max;
}

// Rows [first, last) of the picture; each output row is a data row counted from the top.
void renderRows(const ImageData& image, const std::vector<QRgb>& lookup, ValueRange clip,
                QRgb blank, uchar* bits, qsizetype stride, int first, int last) {
  const double scale = (ImageRenderer::kLevels - 1) / (clip.max - clip.min);
  const double top = ImageRenderer::kLevels - 1;
  for (int row = first; row < last; ++row) {
    const float* in = image.pixels.data() + static_cast<std::size_t>(image.ny - 1 - row) *
                                                static_cast<std::size_t>(image.nx);
    auto* out = reinterpret_cast<QRgb*>(bits + stride * row);
    for (int x = 0; x < image.nx; ++x) {
      const double v = in[x];
      if (!std::isfinite(v)) {
        out[x] = blank;
        continue;
      }
      const double level = std::clamp((v - clip.min) * scale, 0.0, top);
      out[x] = lookup[static_cast<std::size_t>(level + 0.5)];
    }
  }
}

}  // namespace

bool operator==(const DisplaySettings& a, const DisplaySettings& b) {
  return a.colormap == b.colormap && a.inverted == b.inverted &&
         sameStretch(a.stretch, b.stretch) && sameClip(a, b);
}

void ImageRenderer::setImage(std::shared_ptr<const ImageData> image) {
  image_ = std::move(image);
  samples_.clear();
  data_range_ = {};
  if (image_ && image_->consistent() && !image_->empty()) {
    data_range_ = finiteRange(image_->pixels.data(), image_->pixels.size());
    samples_ = finiteSubsample(image_->pixels.data(), image_->pixels.size(), kMaxSamples);
  }
  clip_dirty_ = lookup_dirty_ = picture_dirty_ = true;
}

void ImageRenderer::setSettings(const DisplaySettings& settings) {
  if (settings == settings_)
    return;
  if (!sameClip(settings, settings_) ||
      isDiverging(settings.colormap) != isDiverging(settings_.colormap))
    clip_dirty_ = true;
  settings_ = settings;
  lookup_dirty_ = picture_dirty_ = true;
}

void ImageRenderer::updateClip() {
  if (!clip_dirty_)
    return;
  clip_dirty_ = false;
  switch (settings_.clip) {
    case ClipMode::MinMax:
      clip_ = data_range_;
      break;
    case ClipMode::Percentile: {
      std::vector<float> scratch = samples_;
      clip_ = scratch.empty() ? ValueRange{} : percentileRange(scratch, settings_.clip_percent);
      break;
    }
    case ClipMode::User:
      clip_ = {std::min(settings_.user_min, settings_.user_max),
               std::max(settings_.user_min, settings_.user_max)};
      break;
  }
  if (isDiverging(settings_.colormap) && settings_.clip != ClipMode::User) {
    // Residuals: zero must land on the neutral centre, so positive and negative read alike.
    const double extent = std::max(std::abs(clip_.min), std::abs(clip_.max));
    clip_ = {-extent, extent};
  }
  if (!clip_.valid()) {  // constant or empty image: centre the single value in the colormap
    const double pad = std::max(std::abs(clip_.min) * 1e-3, 1e-12);
    clip_ = {clip_.min - pad, clip_.max + pad};
  }
  lookup_dirty_ = true;
}

void ImageRenderer::updateLookup() {
  updateClip();
  if (!lookup_dirty_)
    return;
  lookup_dirty_ = false;
  if (settings_.stretch.kind == StretchKind::HistogramEqualization) {
    equalization_ = equalizationCurve(samples_.data(), samples_.size(), clip_.min, clip_.max,
                                      kEqualizationBins);
  } else {
    equalization_.clear();
  }
  const ColorTable table = colorTable();
  lookup_.resize(kLevels);
  for (int i = 0; i < kLevels; ++i) {
    const double t = static_cast<double>(i) / (kLevels - 1);
    const double level =
        equalization_.empty() ? stretchLevel(t, settings_.stretch) : applyCurve(equalization_, t);
    const int index = std::clamp(static_cast<int>(level * 256.0), 0, 255);
    lookup_[static_cast<std::size_t>(i)] = table[static_cast<std::size_t>(index)];
  }
  picture_dirty_ = true;
}

ValueRange ImageRenderer::clipRange() {
  updateClip();
  return clip_;
}

double ImageRenderer::levelOf(double value) {
  updateLookup();
  const double t = (value - clip_.min) / (clip_.max - clip_.min);
  return equalization_.empty() ? stretchLevel(t, settings_.stretch) : applyCurve(equalization_, t);
}

const QImage& ImageRenderer::picture() {
  updateLookup();
  if (!picture_dirty_)
    return picture_;
  picture_dirty_ = false;
  if (!image_ || image_->empty() || !image_->consistent()) {
    picture_ = QImage();
    return picture_;
  }
  ++render_count_;
  picture_ = QImage(image_->nx, image_->ny, QImage::Format_RGB32);
  uchar* bits = picture_.bits();  // detach once here, not from the worker threads
  const qsizetype stride = picture_.bytesPerLine();
  // Rows are independent: split them over a few threads so 4096^2 images recolour in a blink.
  const int threads = std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, 8);
  const int per_thread = (image_->ny + threads - 1) / threads;
  std::vector<std::thread> workers;
  for (int first = per_thread; first < image_->ny; first += per_thread) {
    const int last = std::min(first + per_thread, image_->ny);
    workers.emplace_back(renderRows, std::cref(*image_), std::cref(lookup_), clip_, blank_color_,
                         bits, stride, first, last);
  }
  renderRows(*image_, lookup_, clip_, blank_color_, bits, stride, 0,
             std::min(per_thread, image_->ny));
  for (std::thread& worker : workers)
    worker.join();
  return picture_;
}

}  // namespace apertura::gui
