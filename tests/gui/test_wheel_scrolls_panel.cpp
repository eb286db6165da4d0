// The run settings' scroll area: the wheel over a combo or spin box that has no keyboard focus
// scrolls the panel and leaves the value alone (a user scrolling the settings once switched
// "Grid sums" from double to float); once the control has focus, the wheel changes its value as
// usual. Controls added after the filter are covered too.
#include <QApplication>
#include <QComboBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <QtTest>

#include "gui/window/wheel_scrolls_panel.h"

using apertura::gui::WheelScrollsPanel;

namespace {

// One wheel step down over `w`'s centre, delivered as the window system would (through the
// application's event filters).
void wheelDown(QWidget* w) {
  const QPointF local(w->width() / 2.0, w->height() / 2.0);
  QWheelEvent event(local, w->mapToGlobal(local), QPoint(), QPoint(0, -120), Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(w, &event);
}

}  // namespace

class TestWheelScrollsPanel : public QObject {
  Q_OBJECT

 private slots:
  void wheelScrollsUntilAControlHasFocus() {
    QScrollArea area;
    auto* panel = new QWidget;
    auto* layout = new QVBoxLayout(panel);
    auto* combo = new QComboBox;
    combo->addItems({"double", "float", "half"});
    auto* spin = new QSpinBox;
    spin->setRange(0, 100);
    spin->setValue(50);
    layout->addWidget(combo);
    layout->addWidget(spin);
    for (int i = 0; i < 40; ++i)  // tall enough to scroll
      layout->addWidget(new QSpinBox);
    area.setWidget(panel);
    area.setWidgetResizable(true);
    area.resize(300, 200);
    new WheelScrollsPanel(&area);
    area.show();
    QVERIFY(QTest::qWaitForWindowExposed(&area));
    QCOMPARE(combo->focusPolicy(), Qt::StrongFocus);
    // Platforms that activate the window focus its first control: start with none focused.
    if (QWidget* focused = QApplication::focusWidget())
      focused->clearFocus();
    QVERIFY(!combo->hasFocus() && !spin->hasFocus());

    QScrollBar* bar = area.verticalScrollBar();
    QVERIFY(bar->maximum() > 0);
    QCOMPARE(bar->value(), 0);
    wheelDown(combo);
    QCOMPARE(combo->currentIndex(), 0);
    const int after_combo = bar->value();
    QVERIFY(after_combo > 0);
    wheelDown(spin);
    QCOMPARE(spin->value(), 50);
    QVERIFY(bar->value() > after_combo);

    // A control added later (the plugin regularizers box is rebuilt when plugins load).
    auto* late = new QComboBox;
    late->addItems({"a", "b"});
    layout->insertWidget(0, late);
    late->show();
    QCOMPARE(late->focusPolicy(), Qt::StrongFocus);
    wheelDown(late);
    QCOMPARE(late->currentIndex(), 0);

    // Focused: the wheel is the control's again.
    QApplication::setActiveWindow(&area);
    combo->setFocus();
    QTRY_VERIFY(combo->hasFocus());
    const int scrolled = bar->value();
    wheelDown(combo);
    QCOMPARE(combo->currentIndex(), 1);
    QCOMPARE(bar->value(), scrolled);
  }

  void controlsOutsideTheAreaKeepQtsBehaviour() {
    QScrollArea area;
    area.setWidget(new QWidget);
    new WheelScrollsPanel(&area);
    QComboBox outside;
    outside.addItems({"a", "b"});
    outside.show();
    QVERIFY(QTest::qWaitForWindowExposed(&outside));
    QCOMPARE(outside.focusPolicy(), Qt::WheelFocus);
    wheelDown(&outside);
    QCOMPARE(outside.currentIndex(), 1);
  }
};

QTEST_MAIN(TestWheelScrollsPanel)
#include "test_wheel_scrolls_panel.moc"
