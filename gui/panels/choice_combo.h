#pragma once

#include <QComboBox>
#include <QString>

#include "core/project/setting_choices.h"

namespace apertura::gui {

// Combo boxes of a project choice: the items are the names of core's table (setting_choices.h), so
// the GUI lists exactly what project files accept, in the same words.
template <typename E>
void addChoices(QComboBox* combo) {
  for (const auto& c : project::choiceTable<E>())
    combo->addItem(QString::fromUtf8(c.name));
}

// addChoices with each item's tooltip from core's describeChoice (what the value does).
template <typename E>
void addDescribedChoices(QComboBox* combo) {
  for (const auto& c : project::choiceTable<E>()) {
    combo->addItem(QString::fromUtf8(c.name));
    combo->setItemData(combo->count() - 1, QString::fromStdString(project::describeChoice(c.value)),
                       Qt::ToolTipRole);
  }
}

template <typename E>
E currentChoice(const QComboBox* combo, E fallback) {
  return project::parseChoice<E>(combo->currentText().toStdString()).value_or(fallback);
}

template <typename E>
void selectChoice(QComboBox* combo, E value) {
  combo->setCurrentText(QString::fromStdString(project::choiceName(value)));
}

}  // namespace apertura::gui
