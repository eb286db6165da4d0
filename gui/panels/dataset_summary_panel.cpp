#include "gui/panels/dataset_summary_panel.h"

#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>

#include "core/data/dataset_summary_text.h"

namespace apertura::gui {

DatasetSummaryPanel::DatasetSummaryPanel(QWidget* parent)
    : QWidget(parent), title_(new QLabel(this)), body_(new QPlainTextEdit(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  QFont title_font = title_->font();
  title_font.setBold(true);
  title_->setFont(title_font);
  body_->setReadOnly(true);
  body_->setLineWrapMode(QPlainTextEdit::NoWrap);
  body_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  layout->addWidget(title_);
  layout->addWidget(body_, 1);
  clear();
}

void DatasetSummaryPanel::showSummary(const apertura::DatasetSummary& summary) {
  title_->setText(QFileInfo(QString::fromStdString(summary.path)).fileName());
  body_->setPlainText(QString::fromStdString(formatSummaryText(summary)));
}

void DatasetSummaryPanel::showError(const QString& path, const QString& message) {
  title_->setText(tr("Could not open %1").arg(QFileInfo(path).fileName()));
  body_->setPlainText(message);
}

void DatasetSummaryPanel::clear() {
  title_->setText(tr("No data set"));
  body_->setPlainText(tr("Use File > Open data set… to load a Measurement Set."));
}

QString DatasetSummaryPanel::text() const {
  return body_->toPlainText();
}

}  // namespace apertura::gui
