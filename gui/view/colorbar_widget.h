#pragma once

#include <QString>
#include <QWidget>

#include <vector>

#include "gui/colormap/colormap.h"
#include "gui/view/image_scaling.h"

namespace apertura::gui {

// "Nice" tick values (1, 2, 5 x 10^k steps) inside [lo, hi], about `target` of them.
std::vector<double> niceTicks(double lo, double hi, int target);

// Brightness units scaled for reading: Jy/beam values of 1e-4 read as "100 uJy/beam". Returns the
// factor to multiply values by and the unit to print.
struct UnitScale {
  double factor = 1.0;
  QString unit;
};
UnitScale readableUnit(const QString& unit, double max_abs_value);

// A vertical colour bar with value ticks and the brightness unit. Ticks sit where the stretch puts
// their value, so a log stretch shows crowded high values, as it should.
class ColorbarWidget : public QWidget {
  Q_OBJECT

 public:
  struct Tick {
    double value;
    double level;  // 0 at the bottom of the bar, 1 at the top
  };

  explicit ColorbarWidget(QWidget* parent = nullptr);

  void setScale(const ColorTable& table, ValueRange range, std::vector<Tick> ticks,
                const QString& unit);
  void clear();

  const std::vector<Tick>& ticks() const { return ticks_; }
  QString unitLabel() const { return unit_label_; }

  QSize sizeHint() const override { return {96, 300}; }
  QSize minimumSizeHint() const override { return {80, 120}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  ColorTable table_{};
  ValueRange range_;
  std::vector<Tick> ticks_;
  UnitScale scale_;
  QString unit_label_;
  bool has_scale_ = false;
};

}  // namespace apertura::gui
