#pragma once

#include <QString>
#include <QWidget>

#include <cstddef>
#include <vector>

#include "gui/view/image_scaling.h"

namespace apertura::gui {

// Distribution of pixel values (log counts, as CARTA draws it) with the clip range marked, so the
// user sees how much of the noise and of the source the colour scale spans. The plotted range is
// the clip range widened by half its width on each side, within the data range.
class HistogramWidget : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kBins = 200;

  explicit HistogramWidget(QWidget* parent = nullptr);

  // `samples`: finite pixel values (a subsample for large images).
  void setSamples(std::vector<float> samples, ValueRange data_range, const QString& unit);
  void setClipRange(ValueRange clip);

  ValueRange plotRange() const { return plot_range_; }
  ValueRange clipRange() const { return clip_; }
  const std::vector<std::size_t>& counts() const { return counts_; }

  QSize sizeHint() const override { return {400, 120}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  void recount();

  std::vector<float> samples_;
  ValueRange data_range_;
  ValueRange clip_;
  ValueRange plot_range_;
  std::vector<std::size_t> counts_;
  QString unit_;
};

}  // namespace apertura::gui
