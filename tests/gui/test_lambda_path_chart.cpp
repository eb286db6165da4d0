// Issue #31 (item 4): the Convergence dock's "λ path" chart shows how an automatic λ was chosen
// (cv: held-out χ² per fold, their mean, the training χ²; discrepancy: χ² per step and the
// target), marks the chosen λ, shows an empty state, and offers "Re-image with λ = X" from a
// point of the mean curve, which fixes the automatic λ in the run settings and starts a run from
// the last model.
#include <QDockWidget>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSlider>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "gui/controller/project_document.h"
#include "gui/controller/run_controller.h"
#include "gui/panels/run_settings_panel.h"
#include "gui/plots/convergence_panel.h"
#include "gui/plots/lambda_path_chart.h"
#include "gui/view/image_panel.h"
#include "gui/view/image_view.h"
#include "gui/window/main_window.h"
#include "gui/window/path_models_tab.h"
#include "gui/window/project_actions.h"
#include "tests/gui/gui_test_support.h"

using namespace apertura;
using apertura::gui::LambdaPathChart;

namespace {

using Step = pipeline::ImagingProducts::LambdaStep;

// A cv path of 6 steps (λ 64 down to 2) and 3 folds: the mean held-out error is least at λ 8.
LambdaPathChart::Path cvPath() {
  LambdaPathChart::Path path;
  const double held[6] = {40.0, 9.0, 3.0, 2.0, 2.5, 3.5};
  for (int j = 0; j < 6; ++j) {
    Step s;
    s.lambda = 64.0 / std::pow(2.0, j);
    s.fold_validation = {held[j] * 0.9, held[j], held[j] * 1.1};
    s.validation = held[j];
    s.chi2_reduced = held[j] * 0.8 - 0.1 * j;  // training fits better as λ falls
    path.push_back(s);
  }
  return path;
}

// A discrepancy path: reduced χ² 12, 6, 3, 1.5, 0.9 at λ 100, 50, 25, 12.5, 6.25.
LambdaPathChart::Path discrepancyPath() {
  LambdaPathChart::Path path;
  const double chi2[5] = {12.0, 6.0, 3.0, 1.5, 0.9};
  for (int j = 0; j < 5; ++j)
    path.push_back({100.0 / std::pow(2.0, j), chi2[j], 0.0, {}, {}});
  return path;
}

QList<QPointF> pointsOf(const QLineSeries* s) {
  return s ? s->points() : QList<QPointF>();
}

QPlainTextEdit* logOf(gui::MainWindow& w) {
  auto* dock = w.findChild<QDockWidget*>("log-dock");
  return dock ? qobject_cast<QPlainTextEdit*>(dock->widget()) : nullptr;
}

}  // namespace

class TestLambdaPathChart : public QObject {
  Q_OBJECT
 private slots:
  void emptyStateUntilAPathIsShown() {
    LambdaPathChart chart;
    QVERIFY(chart.isEmpty());
    QCOMPARE(chart.emptyText(), QString("No automatic λ in this run"));
    QCOMPARE(chart.chart()->series().size(), 0);
    QVERIFY(!chart.chart()->legend()->isVisible());

    chart.setPath(cvPath(), 8.0, 1.0);
    QVERIFY(!chart.isEmpty());
    QCOMPARE(chart.emptyText(), QString());
    chart.clear();
    QVERIFY(chart.isEmpty());
    QCOMPARE(chart.emptyText(), QString("No automatic λ in this run"));
    QCOMPARE(chart.chart()->series().size(), 0);
    QVERIFY(!chart.pickCurve() && !chart.chosenLine() && chart.foldCurves().isEmpty());

    chart.setPath({}, 0.0, 1.0);  // a run without an automatic λ
    QVERIFY(chart.isEmpty());
    QVERIFY(!chart.emptyText().isEmpty());
    chart.clear("elsewhere");
    QCOMPARE(chart.emptyText(), QString("elsewhere"));
  }

  void crossValidationCurves() {
    LambdaPathChart chart;
    chart.resize(900, 300);
    const auto path = cvPath();
    chart.setPath(path, 7.3, 1.0);
    QVERIFY(chart.isCrossValidation());
    QCOMPARE(chart.foldCurves().size(), 3);
    for (int f = 0; f < 3; ++f) {
      const QList<QPointF> p = pointsOf(chart.foldCurves()[f]);
      QCOMPARE(p.size(), 6);
      for (int j = 0; j < 6; ++j) {
        QCOMPARE(p[j].x(), path[j].lambda);
        QCOMPARE(p[j].y(), path[j].fold_validation[f]);
      }
      QVERIFY(chart.foldCurves()[f]->pen().widthF() < chart.pickCurve()->pen().widthF());
    }
    const QList<QPointF> mean = pointsOf(chart.pickCurve());
    const QList<QPointF> training = pointsOf(chart.trainingCurve());
    QCOMPARE(mean.size(), 6);
    QCOMPARE(training.size(), 6);
    for (int j = 0; j < 6; ++j) {
      QCOMPARE(mean[j], QPointF(path[j].lambda, path[j].validation));
      QCOMPARE(training[j], QPointF(path[j].lambda, path[j].chi2_reduced));
    }
    QVERIFY(chart.pickCurve()->pointsVisible());
    QCOMPARE(chart.trainingCurve()->pen().style(), Qt::DashLine);
    QVERIFY(!chart.targetLine());

    // Log λ axis covering the path and the chosen λ; log χ² axis covering every value.
    auto* x = qobject_cast<QLogValueAxis*>(chart.chart()->axes(Qt::Horizontal).value(0));
    auto* y = qobject_cast<QLogValueAxis*>(chart.chart()->axes(Qt::Vertical).value(0));
    QVERIFY(x && y);
    QVERIFY(x->min() < 2.0 && x->max() > 64.0);
    QVERIFY(y->min() < 1.5 && y->max() > 44.0);
    QVERIFY(!x->titleText().isEmpty() && !y->titleText().isEmpty());

    // The chosen λ: a vertical line across the plot at 7.3, labelled.
    const QList<QPointF> chosen = pointsOf(chart.chosenLine());
    QCOMPARE(chosen.size(), 2);
    QCOMPARE(chosen[0].x(), 7.3);
    QCOMPARE(chosen[1].x(), 7.3);
    QCOMPARE(chosen[0].y(), y->min());
    QCOMPARE(chosen[1].y(), y->max());
    QCOMPARE(chart.chosenLabel(), QString("chosen λ = 7.3"));
    QCOMPARE(chart.chosenLine()->name(), QString("chosen λ = 7.3"));

    // The legend: one entry for all the folds, and the mean, training and chosen λ.
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    int shown = 0;
    for (QLegendMarker* m : chart.chart()->legend()->markers())
      shown += m->isVisible() ? 1 : 0;
    QCOMPARE(shown, 4);

    // Hover text: λ and every value of the step.
    const QString text = chart.stepText(3);
    QVERIFY2(text.contains("λ = 8") && text.contains("2 (mean)") && text.contains("1.8, 2, 2.2") &&
                 text.contains("training reduced χ²: 1.3"),
             qPrintable(text));
  }

  void discrepancyCurveAndTarget() {
    LambdaPathChart chart;
    const auto path = discrepancyPath();
    chart.setPath(path, 10.6, 1.2);
    QVERIFY(!chart.isCrossValidation());
    QVERIFY(chart.foldCurves().isEmpty());
    QVERIFY(!chart.trainingCurve());
    const QList<QPointF> chi2 = pointsOf(chart.pickCurve());
    QCOMPARE(chi2.size(), 5);
    for (int j = 0; j < 5; ++j)
      QCOMPARE(chi2[j], QPointF(path[j].lambda, path[j].chi2_reduced));
    // The target: a horizontal line at 1.2 across the λ axis.
    auto* x = qobject_cast<QLogValueAxis*>(chart.chart()->axes(Qt::Horizontal).value(0));
    const QList<QPointF> target = pointsOf(chart.targetLine());
    QCOMPARE(target.size(), 2);
    QCOMPARE(target[0], QPointF(x->min(), 1.2));
    QCOMPARE(target[1], QPointF(x->max(), 1.2));
    QCOMPARE(pointsOf(chart.chosenLine()).value(0).x(), 10.6);
    QVERIFY(chart.stepText(4).contains("reduced χ²: 0.9"));
  }

  // Values a log axis cannot draw are left out, not plotted at a clamped position.
  void lowestValuesHaveALabelBelowThem() {
    // Held-out χ² from 1.8 to 116 (the demo's path): a log axis labelling powers of 10 only
    // must reach down to 1, else the lowest points sit below every label.
    LambdaPathChart chart;
    LambdaPathChart::Path path;
    const double values[] = {116.0, 21.5, 4.8, 2.2, 1.9, 1.8};
    for (int j = 0; j < 6; ++j)
      path.push_back({4265.0 / std::pow(4.0, j), values[j], values[j], {values[j], values[j]}, {}});
    chart.setPath(path, 1.7, 1.0);
    auto* y = qobject_cast<QLogValueAxis*>(chart.chart()->axes(Qt::Vertical).value(0));
    QVERIFY(y);
    QCOMPARE(y->base(), 10.0);
    QCOMPARE(y->min(), 1.0);
    QVERIFY(y->max() > 116.0);
  }

  void nonPositiveValuesAreSkipped() {
    LambdaPathChart chart;
    auto path = discrepancyPath();
    path[0].chi2_reduced = INFINITY;  // a step that reported no iteration
    path[1].chi2_reduced = 0.0;
    chart.setPath(path, 0.0, 1.0);
    QCOMPARE(chart.pickCurve()->count(), 3);
    QVERIFY(!chart.chosenLine());  // no chosen λ (0)
    QCOMPARE(chart.chosenLabel(), QString());
  }

  // A click on the mean curve offers the nearest step's λ (4 significant digits), and the menu
  // entry emits it.
  void clickOffersReimage() {
    LambdaPathChart chart;
    auto path = cvPath();
    path[2].lambda = 16.123456;
    chart.setPath(path, 7.3, 1.0);
    QSignalSpy requested(&chart, &LambdaPathChart::reimageRequested);

    chart.pickPoint(QPointF(15.0, 2.9));  // nearer 16.12 than 8 or 32 in log λ
    QVERIFY(chart.reimageMenu()->isVisible());
    QCOMPARE(chart.reimageAction()->text(), QString("Re-image with λ = 16.12"));
    chart.reimageAction()->trigger();
    QCOMPARE(requested.size(), 1);
    QCOMPARE(requested.first().at(0).toDouble(), 16.12);

    // A real click on the fifth point of the mean curve.
    chart.reimageMenu()->hide();
    chart.resize(900, 320);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    const QPointF scene = chart.chart()->mapToPosition(chart.pickCurve()->at(4), chart.pickCurve());
    const QPoint at = chart.mapFromScene(chart.chart()->mapToScene(scene));
    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, at);
    QTRY_VERIFY(chart.reimageMenu()->isVisible());
    QCOMPARE(chart.reimageAction()->text(), QString("Re-image with λ = 4"));
    chart.reimageAction()->trigger();
    QCOMPARE(requested.size(), 2);
    QCOMPARE(requested.last().at(0).toDouble(), 4.0);

    // With unnormalised scaling the path's λ means something else: offered, but disabled.
    chart.setReimageAvailable(false, "scaling");
    chart.pickPoint(QPointF(8.0, 2.0));
    QVERIFY(!chart.reimageAction()->isEnabled());
    QCOMPARE(chart.reimageAction()->toolTip(), QString("scaling"));
    chart.reimageAction()->trigger();  // a disabled action does not fire
    QCOMPARE(requested.size(), 2);
  }

  // "Show the model at λ = X" asks for the picked step's model, when the run kept it.
  void clickOffersTheStepsModel() {
    LambdaPathChart chart;
    auto path = cvPath();
    path[1].model = {1.0f, 2.0f};
    chart.setPath(path, 7.3, 1.0);
    QSignalSpy requested(&chart, &LambdaPathChart::modelRequested);
    chart.pickPoint(QPointF(30.0, 9.0));  // step 1, λ 32
    QCOMPARE(chart.showModelAction()->text(), QString("Show the model at λ = 32"));
    QVERIFY(chart.showModelAction()->isEnabled());
    chart.showModelAction()->trigger();
    QCOMPARE(requested.size(), 1);
    QCOMPARE(requested.first().at(0).toInt(), 1);

    chart.pickPoint(QPointF(8.0, 2.0));  // step 3: no model kept
    QVERIFY(!chart.showModelAction()->isEnabled());
    QVERIFY(chart.showModelAction()->toolTip().contains("MiB"));
    chart.showModelAction()->trigger();
    QCOMPARE(requested.size(), 1);
  }

  // The λ models tab shows a step's own pixels on the run's grid, opens at the chosen λ, and says
  // when a step's model was not kept.
  void pathModelsTabShowsEachStepsModel() {
    auto products = std::make_shared<pipeline::ImagingProducts>();
    products->geometry = imaging::ImageGeometry::fromCell(4, 2, 1e-6);
    products->phase_centre_ra_rad = 1.0;
    products->phase_centre_dec_rad = -0.5;
    products->auto_lambda = 7.0;
    const double lambdas[3] = {32.0, 8.0, 2.0};
    for (int j = 0; j < 3; ++j) {
      pipeline::ImagingProducts::LambdaStep step;
      step.lambda = lambdas[j];
      step.chi2_reduced = 1.0 + j;
      if (j < 2)  // the last step's model "not kept"
        for (int p = 0; p < 8; ++p)
          step.model.push_back(float(10 * j + p));
      products->lambda_path.push_back(step);
    }
    gui::PathModelsTab tab;
    tab.setProducts(products);
    QCOMPARE(tab.stepCount(), 3);
    QCOMPARE(tab.step(), 1);  // λ 8 is nearest the chosen 7
    QVERIFY2(tab.caption().startsWith("Step 2 of 3: λ = 8 (chosen: 7)"), qPrintable(tab.caption()));
    QVERIFY2(tab.caption().contains("reduced χ² 2"), qPrintable(tab.caption()));
    const auto shown = tab.panel()->view()->image();
    QVERIFY(shown);
    QCOMPARE(shown->nx, 4);
    QCOMPARE(shown->ny, 2);
    QCOMPARE(shown->pixels, products->lambda_path[1].model);
    QCOMPARE(shown->wcs.ref_ra_rad, 1.0);
    QCOMPARE(shown->wcs.cell_x_rad, -1e-6);

    tab.slider()->setValue(0);
    QCOMPARE(tab.panel()->view()->image()->pixels, products->lambda_path[0].model);
    QVERIFY(!tab.showStep(2));
    QCOMPARE(tab.step(), 2);
    QVERIFY2(tab.caption().contains("not kept"), qPrintable(tab.caption()));
    const auto none = tab.panel()->view()->image();
    QVERIFY(!none || none->empty());

    products.reset();  // the tab keeps the run's products alive while it shows them
    QVERIFY(tab.showStep(1));
    QCOMPARE(tab.panel()->view()->image()->pixels[7], 17.0f);
    tab.clear();
    QCOMPARE(tab.stepCount(), 0);
    QCOMPARE(tab.step(), -1);
  }

  void offeredLambdaIsRoundedToWhatTheMenuShows() {
    QCOMPARE(LambdaPathChart::offeredLambda(4265.123), 4265.0);
    QCOMPARE(LambdaPathChart::offeredLambda(133.2812), 133.3);
    QCOMPARE(LambdaPathChart::offeredLambda(1.0), 1.0);
    QCOMPARE(LambdaPathChart::offeredLambda(0.000123456), 0.0001235);
  }

  // End to end on the demo: a run with an automatic λ fills the chart; "Re-image with λ = X"
  // fixes the λ in the run settings, starts a run from the last model, and the chart clears.
  void reimageFromTheWindow() {
    QTemporaryDir dir;
    auto w = testing::demoWindowForLbfgsRun(10, dir);
    QVERIFY(w);
    auto s = w->runSettings()->settings(project::ProjectSettings{});
    QVERIFY(s);
    s->imaging.nx = s->imaging.ny = 128;
    s->regularizers = {{"l1", std::nullopt, false, {}}};  // auto
    w->runSettings()->setSettings(*s);
    auto* l1 = w->runSettings()->findChild<QLineEdit*>("lambda-l1");
    QVERIFY(l1);
    QCOMPARE(l1->text(), QString("auto"));

    LambdaPathChart* chart = w->convergence()->lambdaPathChart();
    testing::runToFinish(*w, [&] { QVERIFY(chart->isEmpty()); });
    QVERIFY(!QTest::currentTestFailed());
    QVERIFY2(!chart->isEmpty(), "a run with an automatic λ shows its path");
    QVERIFY(chart->chosenLambda() > 0.0);
    QVERIFY(chart->pickCurve()->count() >= 2);
    QVERIFY(chart->reimageAction()->isEnabled());  // the default scaling is normalised
    const QString shot = testing::artifact("lambda-path-chart.png");
    if (!shot.isEmpty()) {
      w->convergence()->setCurrentWidget(chart);
      QVERIFY(w->grab().save(shot));
    }

    // Every step's model is kept (128^2 is far within the budget) and browsable in the λ models
    // tab: it opens at the chosen λ's step, a step's image is that step's model, and the menu's
    // "Show the model" goes to the step picked.
    gui::PathModelsTab* models = w->pathModelsTab();
    QCOMPARE(models->stepCount(), chart->pickCurve()->count());
    QVERIFY(models->slider()->isEnabled());
    QVERIFY2(models->caption().contains("folds' models"), qPrintable(models->caption()));
    QVERIFY2(models->caption().contains("chosen"), qPrintable(models->caption()));
    QVERIFY(models->showStep(0));
    QCOMPARE(models->slider()->value(), 0);
    const auto shown = models->panel()->view()->image();
    QVERIFY(shown && !shown->empty());
    QCOMPARE(shown->nx, 128);
    QCOMPARE(shown->unit, std::string("Jy/pixel"));
    models->slider()->setValue(1);  // a user's move
    QCOMPARE(models->step(), 1);
    QVERIFY2(models->caption().startsWith(QString("Step 2 of %1").arg(models->stepCount())),
             qPrintable(models->caption()));
    chart->pickPoint(chart->pickCurve()->at(0));
    QVERIFY(chart->showModelAction()->isEnabled());
    chart->showModelAction()->trigger();
    QCOMPARE(models->step(), 0);
    QCOMPARE(w->centralTabs()->currentWidget(), static_cast<QWidget*>(models));

    QSignalSpy finished(w.get(), &gui::MainWindow::runFinished);
    chart->pickPoint(chart->pickCurve()->at(1));
    const double lambda = LambdaPathChart::offeredLambda(chart->pickCurve()->at(1).x());
    chart->reimageAction()->trigger();
    QVERIFY(w->runController()->isRunning());
    QVERIFY(chart->isEmpty());  // cleared for the new run
    QCOMPARE(models->stepCount(), 0);
    QCOMPARE(l1->text(), QString::number(lambda));
    const auto project = w->projectActions()->currentProject();
    QVERIFY(project);
    QCOMPARE(project->regularizers.size(), std::size_t(1));
    QCOMPARE(project->regularizers[0].lambda, std::optional<double>(lambda));
    QVERIFY(w->projectActions()->document()->isModified());
    QPlainTextEdit* log = logOf(*w);
    QVERIFY(log);
    QVERIFY2(log->toPlainText().contains("from the last model"), qPrintable(log->toPlainText()));

    QVERIFY(finished.wait(240000));
    QCOMPARE(finished.first().at(0).toString(), QString("finished"));
    QCOMPARE(chart->emptyText(), QString("No automatic λ in this run"));
    // Nothing automatic is left to fix.
    QVERIFY(!w->reimageWithLambda(2.0));
  }
};

int main(int argc, char** argv) {
  return apertura::testing::runWindowTest<TestLambdaPathChart>(argc, argv);
}

#include "test_lambda_path_chart.moc"
