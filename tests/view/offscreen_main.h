#pragma once

#include <QApplication>
#include <QtTest>

// Widget tests here paint with QPainter only (no OpenGL), so without an X display they run on the
// offscreen platform; with a display (xvfb-run in CI) they use it.
#define APERTURA_OFFSCREEN_TEST_MAIN(TestClass)                                                   \
  int main(int argc, char** argv) {                                                               \
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) \
      qputenv("QT_QPA_PLATFORM", "offscreen");                                                    \
    QApplication app(argc, argv);                                                                 \
    TestClass test;                                                                               \
    return QTest::qExec(&test, argc, argv);                                                       \
  }
