#include "gui/plots/lambda_path_chart.h"

#include <QAction>
#include <QCursor>
#include <QGraphicsSimpleTextItem>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMenu>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/pipeline/lambda_path.h"

namespace apertura::gui {
namespace {

// A log axis cannot show zero, negative or non-finite values (training χ² is infinite for a
// step that reported no iteration).
bool drawable(double v) {
  return std::isfinite(v) && v > 0.0;
}

// Shows [lo, hi] with a margin (5% of the span, at least 15%), so that the first and last steps
// (and a chosen λ at the end of the path) stay clear of the frame. A log axis labels the powers of
// its base only: base 10 (or 100, ... for wide ranges) with a minor grid at 2..9, as long as that
// labels two powers at least (an end within half a label interval of the next power is extended
// to it); else base 2, widened to whole powers of 2 where even that labels fewer than two. (Base 2
// over a wide range crowds a short plot: Qt then drops labels unevenly.)
void fitLogAxis(QLogValueAxis* axis, double lo, double hi) {
  const double pad = std::max(1.15, std::pow(hi / lo, 0.05));
  lo /= pad;
  hi *= pad;
  const auto labels = [&](double base) {
    return std::floor(std::log(hi) / std::log(base)) - std::ceil(std::log(lo) / std::log(base)) +
           1.0;
  };
  double base = 10.0;
  while (labels(base) > 7.0)
    base *= 10.0;
  if (labels(base) < 2.0) {
    base = 2.0;
    if (labels(base) < 2.0) {
      lo = std::pow(2.0, std::floor(std::log2(lo)));
      hi = std::pow(2.0, std::ceil(std::log2(hi)));
    }
  }
  if (base >= 10.0) {
    // An end within half a label interval of a power reaches it: held-out χ² from 1.8 to 116 is
    // labelled 1, 10, 100, not 10 and 100 with the lowest points below every label.
    const double half = std::sqrt(base);
    const double below = std::pow(base, std::floor(std::log(lo) / std::log(base)));
    const double above = std::pow(base, std::ceil(std::log(hi) / std::log(base)));
    if (lo / below < half)
      lo = below;
    if (above / hi < half)
      hi = above;
  }
  axis->setBase(base);
  axis->setMinorTickCount(base == 10.0 ? 8 : 0);
  axis->setRange(lo, hi);
}

QString number(double v) {
  return QString::number(v, 'g', 4);
}

// Colours that read on white and stay apart for the colour blind (Okabe-Ito).
const QColor kMean(0, 114, 178);
const QColor kFold(86, 180, 233);
const QColor kTraining(204, 121, 167);
const QColor kChosen(213, 94, 0);
const QColor kTarget(0, 158, 115);

}  // namespace

LambdaPathChart::LambdaPathChart(QWidget* parent)
    : QChartView(parent),
      x_axis_(new QLogValueAxis),
      y_axis_(new QLogValueAxis),
      empty_label_(nullptr),
      chosen_label_(nullptr),
      menu_(new QMenu(this)),
      reimage_action_(nullptr),
      model_action_(nullptr) {
  setObjectName("lambda-path");
  auto* c = new QChart;
  // Like the other convergence charts: the dock is short, so the legend goes to the right and
  // the title to the tooltip, or Qt Charts elides the axis labels to fit the plot's height.
  setToolTip(
      tr("How the automatic λ was chosen. Click a point of the thick curve to re-image "
         "with its λ."));
  c->legend()->setAlignment(Qt::AlignRight);
  c->setMargins(QMargins(4, 4, 4, 4));
  x_axis_->setTitleText(tr("λ (normalised)"));
  y_axis_->setTitleText(tr("reduced χ²"));
  for (QLogValueAxis* a : {x_axis_, y_axis_}) {
    a->setLabelFormat("%g");
    a->setMinorGridLineColor(QColor(235, 235, 235));
  }
  c->addAxis(x_axis_, Qt::AlignBottom);
  c->addAxis(y_axis_, Qt::AlignLeft);
  setChart(c);
  setRenderHint(QPainter::Antialiasing);
  setMinimumHeight(180);

  empty_label_ = new QGraphicsSimpleTextItem(c);
  chosen_label_ = new QGraphicsSimpleTextItem(c);
  chosen_label_->setBrush(kChosen);
  chosen_label_->setZValue(10);  // above the series
  connect(c, &QChart::plotAreaChanged, this, [this] { placeLabels(); });

  menu_->setObjectName("lambda-reimage-menu");
  reimage_action_ = menu_->addAction(QString());
  connect(reimage_action_, &QAction::triggered, this, [this] { emit reimageRequested(offered_); });
  model_action_ = menu_->addAction(QString());
  connect(model_action_, &QAction::triggered, this, [this] { emit modelRequested(offered_step_); });
  clear();
}

void LambdaPathChart::clear(const QString& empty_text) {
  chart()->removeAllSeries();  // deletes them
  pick_ = training_ = chosen_line_ = target_line_ = nullptr;
  folds_.clear();
  path_.clear();
  chosen_ = 0.0;
  cv_ = false;
  x_axis_->setVisible(false);
  y_axis_->setVisible(false);
  chart()->legend()->setVisible(false);
  chosen_label_->setVisible(false);
  empty_label_->setText(empty_text.isEmpty() ? tr("No automatic λ in this run") : empty_text);
  empty_label_->setVisible(true);
  menu_->hide();
  placeLabels();
}

QString LambdaPathChart::emptyText() const {
  return empty_label_->isVisible() ? empty_label_->text() : QString();
}

QString LambdaPathChart::chosenLabel() const {
  return chosen_label_->isVisible() ? chosen_label_->text() : QString();
}

void LambdaPathChart::setReimageAvailable(bool available, const QString& reason) {
  reimage_available_ = available;
  reimage_action_->setEnabled(available);
  reimage_action_->setToolTip(available ? QString() : reason);
  menu_->setToolTipsVisible(!available || !model_action_->isEnabled());
}

double LambdaPathChart::offeredLambda(double lambda) {
  return number(lambda).toDouble();
}

QLineSeries* LambdaPathChart::addCurve(const QString& name, const QPen& pen) {
  auto* s = new QLineSeries;
  s->setName(name);
  s->setPen(pen);
  chart()->addSeries(s);
  s->attachAxis(x_axis_);
  s->attachAxis(y_axis_);
  connect(s, &QLineSeries::hovered, this, &LambdaPathChart::hover);
  return s;
}

void LambdaPathChart::setPath(const Path& path, double chosen_lambda, double target_chi2) {
  clear();
  std::copy_if(path.begin(), path.end(), std::back_inserter(path_),
               [](const auto& step) { return drawable(step.lambda); });
  if (path_.empty())
    return;
  cv_ = pipeline::isCrossValidatedPath(path_);
  chosen_ = drawable(chosen_lambda) ? chosen_lambda : 0.0;
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = 0.0;
  double y_lo = std::numeric_limits<double>::infinity(), y_hi = 0.0;
  const auto add = [&](QLineSeries* s, double x, double y) {
    if (!drawable(y))
      return;
    s->append(x, y);
    y_lo = std::min(y_lo, y);
    y_hi = std::max(y_hi, y);
  };
  for (const auto& step : path_) {
    x_lo = std::min(x_lo, step.lambda);
    x_hi = std::max(x_hi, step.lambda);
  }

  if (cv_) {
    // Folds first, so the mean is drawn over them. One legend entry stands for all of them.
    std::size_t folds = 0;
    for (const auto& step : path_)
      folds = std::max(folds, step.fold_validation.size());
    for (std::size_t f = 0; f < folds; ++f) {
      QPen pen(kFold, 1.0);
      QLineSeries* s = addCurve(tr("held-out χ², per fold"), pen);
      for (const auto& step : path_) {
        if (f < step.fold_validation.size())
          add(s, step.lambda, step.fold_validation[f]);
      }
      folds_.append(s);
    }
    QPen dashed(kTraining, 1.5, Qt::DashLine);
    training_ = addCurve(tr("training χ² (mean)"), dashed);
    for (const auto& step : path_)
      add(training_, step.lambda, step.chi2_reduced);
    pick_ = addCurve(tr("held-out χ² (mean)"), QPen(kMean, 3.0));
    for (const auto& step : path_)
      add(pick_, step.lambda, step.validation);
  } else {
    pick_ = addCurve(tr("reduced χ²"), QPen(kMean, 3.0));
    for (const auto& step : path_)
      add(pick_, step.lambda, step.chi2_reduced);
    if (drawable(target_chi2)) {
      y_lo = std::min(y_lo, target_chi2);
      y_hi = std::max(y_hi, target_chi2);
    }
  }
  if (!std::isfinite(y_lo)) {  // nothing drawable: the path's values are all zero or infinite
    clear();
    return;
  }
  if (chosen_ > 0.0) {
    x_lo = std::min(x_lo, chosen_);
    x_hi = std::max(x_hi, chosen_);
  }
  fitLogAxis(x_axis_, x_lo, x_hi);
  fitLogAxis(y_axis_, y_lo, y_hi);

  // Lines across the whole plot: set once the axis ranges are known.
  if (!cv_ && drawable(target_chi2)) {
    target_line_ = addCurve(tr("target χ² = %1").arg(number(target_chi2)),
                            QPen(kTarget, 1.5, Qt::DashDotLine));
    target_line_->append({{x_axis_->min(), target_chi2}, {x_axis_->max(), target_chi2}});
  }
  if (chosen_ > 0.0) {
    const QString label = tr("chosen λ = %1").arg(number(chosen_));
    chosen_line_ = addCurve(label, QPen(kChosen, 2.0, Qt::DashLine));
    chosen_line_->append({{chosen_, y_axis_->min()}, {chosen_, y_axis_->max()}});
    chosen_label_->setText(label);
    chosen_label_->setVisible(true);
  }
  pick_->setPointsVisible(true);
  pick_->setMarkerSize(6.0);
  connect(pick_, &QLineSeries::clicked, this, &LambdaPathChart::pickPoint);
  for (QLineSeries* s : folds_.mid(1)) {
    for (QLegendMarker* m : chart()->legend()->markers(s))
      m->setVisible(false);
  }
  x_axis_->setVisible(true);
  y_axis_->setVisible(true);
  chart()->legend()->setVisible(true);
  empty_label_->setVisible(false);
  placeLabels();
}

void LambdaPathChart::placeLabels() {
  const QRectF plot = chart()->plotArea();
  const QRectF empty = empty_label_->boundingRect();
  empty_label_->setPos(chart()->size().width() / 2.0 - empty.width() / 2.0,
                       chart()->size().height() / 2.0 - empty.height() / 2.0);
  if (!chosen_label_->isVisible() || plot.isEmpty())
    return;
  // At the top of the chosen λ's line, on the side with room for the text.
  const QPointF top = chart()->mapToPosition(QPointF(chosen_, y_axis_->max()), chosen_line_);
  const QRectF text = chosen_label_->boundingRect();
  const double x =
      top.x() + 6.0 + text.width() <= plot.right() ? top.x() + 6.0 : top.x() - 6.0 - text.width();
  chosen_label_->setPos(x, plot.top() + 2.0);
}

void LambdaPathChart::resizeEvent(QResizeEvent* event) {
  QChartView::resizeEvent(event);
  placeLabels();
}

int LambdaPathChart::nearestStep(double lambda) const {
  int best = -1;
  double best_distance = std::numeric_limits<double>::infinity();
  for (int i = 0; i < int(path_.size()); ++i) {
    const double d = std::fabs(std::log(path_[i].lambda) - std::log(lambda));
    if (d < best_distance) {
      best_distance = d;
      best = i;
    }
  }
  return best;
}

QString LambdaPathChart::stepText(int i) const {
  if (i < 0 || i >= int(path_.size()))
    return QString();
  const auto& step = path_[std::size_t(i)];
  QString text = tr("λ = %1").arg(number(step.lambda));
  if (cv_) {
    text += "\n" + tr("held-out reduced χ²: %1 (mean)").arg(number(step.validation));
    QStringList folds;
    for (double v : step.fold_validation)
      folds << number(v);
    text += "\n" + tr("per fold: %1").arg(folds.join(", "));
    text += "\n" + tr("training reduced χ²: %1").arg(number(step.chi2_reduced));
  } else {
    text += "\n" + tr("reduced χ²: %1").arg(number(step.chi2_reduced));
  }
  return text;
}

void LambdaPathChart::hover(const QPointF& point, bool state) {
  if (!state || sender() == chosen_line_ || sender() == target_line_) {
    QToolTip::hideText();
    return;
  }
  QToolTip::showText(QCursor::pos(), stepText(nearestStep(point.x())), this);
}

void LambdaPathChart::pickPoint(const QPointF& point) {
  const int i = drawable(point.x()) ? nearestStep(point.x()) : -1;
  if (i < 0)
    return;
  offered_ = offeredLambda(path_[std::size_t(i)].lambda);
  offered_step_ = i;
  reimage_action_->setText(tr("Re-image with λ = %1").arg(number(offered_)));
  const bool kept = !path_[std::size_t(i)].model.empty();
  model_action_->setText(tr("Show the model at λ = %1").arg(number(offered_)));
  model_action_->setEnabled(kept);
  model_action_->setToolTip(kept ? QString()
                                 : tr("Not kept: a path keeps the models of its first steps "
                                      "only, within %1 MiB")
                                       .arg(pipeline::kPathModelBudgetBytes >> 20));
  menu_->setToolTipsVisible(!reimage_available_ || !kept);
  menu_->popup(QCursor::pos());
}

}  // namespace apertura::gui
