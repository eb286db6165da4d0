#pragma once

#include <QChartView>
#include <QList>
#include <QString>
#include <vector>

#include "core/pipeline/imaging_products.h"

class QAction;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QLogValueAxis;
class QMenu;

namespace apertura::gui {

// How the last run chose its automatic λ: the path of regularization.method over a log λ axis.
// cv: the held-out reduced χ² of each fold (thin lines), their mean (thick, with points) and the
// training fits' reduced χ² (dashed); discrepancy: the reduced χ² of each step and the target as
// a horizontal line. The chosen λ is a vertical line. A click on a point of the mean (or
// discrepancy) curve offers "Re-image with λ = X" (reimageRequested) and, when the run kept that
// step's model, "Show the model at λ = X" (modelRequested).
class LambdaPathChart : public QChartView {
  Q_OBJECT

 public:
  using Path = std::vector<apertura::pipeline::ImagingProducts::LambdaStep>;

  explicit LambdaPathChart(QWidget* parent = nullptr);

  // A run's path (ImagingProducts::lambda_path) and chosen λ (auto_lambda; 0: none).
  // target_chi2 is regularization.target_chi2, drawn on a discrepancy path only.
  void setPath(const Path& path, double chosen_lambda, double target_chi2);
  // Back to the empty state, with `empty_text` (or the default text when it is empty).
  void clear(const QString& empty_text = QString());
  // Whether the re-image offer is enabled; `reason` explains a disabled one (its tooltip).
  void setReimageAvailable(bool available, const QString& reason = QString());

  bool isEmpty() const { return path_.empty(); }
  bool isCrossValidation() const { return cv_; }
  double chosenLambda() const { return chosen_; }
  // The text shown instead of a chart; empty while a path is shown.
  QString emptyText() const;
  // The curve whose points offer a re-image: the held-out mean (cv) or the reduced χ²
  // (discrepancy). nullptr when empty.
  QLineSeries* pickCurve() const { return pick_; }
  QLineSeries* trainingCurve() const { return training_; }  // cv only
  const QList<QLineSeries*>& foldCurves() const { return folds_; }
  QLineSeries* chosenLine() const { return chosen_line_; }  // nullptr without a chosen λ
  QLineSeries* targetLine() const { return target_line_; }  // discrepancy only
  QMenu* reimageMenu() const { return menu_; }
  QAction* reimageAction() const { return reimage_action_; }
  QAction* showModelAction() const { return model_action_; }
  QString chosenLabel() const;
  // The hover text of path step `i`: its λ and every value drawn for it.
  QString stepText(int i) const;
  // The λ a picked step offers, rounded to 4 significant digits: the menu, the settings field
  // and the run then show and use the same number.
  static double offeredLambda(double lambda);

 signals:
  void reimageRequested(double lambda);
  // The path step (an index into the path) whose model to show.
  void modelRequested(int step);

 public slots:
  // A click at `point` (chart values) on the pick curve: the nearest step in log λ is offered
  // in a menu at the cursor.
  void pickPoint(const QPointF& point);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  QLineSeries* addCurve(const QString& name, const QPen& pen);
  void hover(const QPointF& point, bool state);
  int nearestStep(double lambda) const;
  void placeLabels();

  QLogValueAxis* x_axis_;
  QLogValueAxis* y_axis_;
  QGraphicsSimpleTextItem* empty_label_;
  QGraphicsSimpleTextItem* chosen_label_;
  QMenu* menu_;
  QAction* reimage_action_;
  QAction* model_action_;
  Path path_;
  double chosen_ = 0.0;
  bool cv_ = false;
  QLineSeries* pick_ = nullptr;
  QLineSeries* training_ = nullptr;
  QList<QLineSeries*> folds_;
  QLineSeries* chosen_line_ = nullptr;
  QLineSeries* target_line_ = nullptr;
  double offered_ = 0.0;   // the λ of the open menu
  int offered_step_ = -1;  // and its step
  bool reimage_available_ = true;
};

}  // namespace apertura::gui
