#include "gui/window/main_window.h"

#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QSplitter>
#include <QStatusBar>
#include <QVBoxLayout>

#include "core/version.h"
#include "gui/controller/dataset_loader.h"
#include "gui/panels/dataset_summary_panel.h"
#include "gui/view/uv_coverage_view.h"

namespace apertura::gui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      loader_(new DatasetLoader(this)),
      summary_panel_(new DatasetSummaryPanel),
      uv_view_(new UvCoverageView),
      status_label_(new QLabel(tr("Ready"))),
      busy_bar_(new QProgressBar) {
  setWindowTitle(tr("Apertura"));
  resize(1200, 720);

  auto* uv_box = new QWidget;
  auto* uv_layout = new QVBoxLayout(uv_box);
  uv_layout->setContentsMargins(4, 4, 4, 4);
  auto* uv_title = new QLabel(tr("uv coverage (metres; conjugates included)"));
  QFont bold = uv_title->font();
  bold.setBold(true);
  uv_title->setFont(bold);
  uv_layout->addWidget(uv_title);
  uv_layout->addWidget(uv_view_, 1);
  uv_view_->setMinimumSize(320, 320);

  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(summary_panel_);
  splitter->addWidget(uv_box);
  splitter->setSizes({620, 580});
  uv_view_->setToolTip(tr("uv coverage (metres): drag to rotate, wheel to zoom"));
  setCentralWidget(splitter);

  busy_bar_->setRange(0, 0);  // indeterminate: summaries do not report fractions yet
  busy_bar_->setMaximumWidth(160);
  busy_bar_->hide();
  statusBar()->addWidget(status_label_, 1);
  statusBar()->addPermanentWidget(busy_bar_);

  buildMenus();
  connect(loader_, &DatasetLoader::started, this, &MainWindow::onLoadStarted);
  connect(loader_, &DatasetLoader::loaded, this, &MainWindow::onLoaded);
  connect(loader_, &DatasetLoader::failed, this, &MainWindow::onFailed);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open data set…"), this, &MainWindow::chooseDataset);
  open->setShortcut(QKeySequence::Open);
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
  quit->setShortcut(QKeySequence::Quit);

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About Apertura"), this, &MainWindow::showAbout);
}

void MainWindow::chooseDataset() {
  // A Measurement Set is a directory.
  const QString path = QFileDialog::getExistingDirectory(this, tr("Open Measurement Set"));
  if (!path.isEmpty())
    openDataset(path);
}

void MainWindow::openDataset(const QString& path) {
  loader_->load(path);
}

void MainWindow::showAbout() {
  QMessageBox::about(this, tr("About Apertura"),
                     tr("<b>Apertura %1</b><p>Interactive regularized maximum likelihood imaging "
                        "for radio interferometry.</p>")
                         .arg(QString::fromLatin1(apertura::kVersion)));
}

void MainWindow::onLoadStarted(const QString& path) {
  status_label_->setText(tr("Reading %1…").arg(QFileInfo(path).fileName()));
  busy_bar_->show();
}

void MainWindow::onLoaded(const apertura::DatasetSummary& summary) {
  busy_bar_->hide();
  const QString path = QString::fromStdString(summary.path);
  summary_panel_->showSummary(summary);
  std::vector<double> u, v;
  u.reserve(summary.uv_sample_m.size() / 2);
  v.reserve(summary.uv_sample_m.size() / 2);
  for (std::size_t i = 0; i + 1 < summary.uv_sample_m.size(); i += 2) {
    u.push_back(summary.uv_sample_m[i]);
    v.push_back(summary.uv_sample_m[i + 1]);
  }
  uv_view_->setUvw(u, v);
  setWindowTitle(tr("Apertura — %1").arg(QFileInfo(path).fileName()));
  status_label_->setText(tr("%1: %2 rows, %3 antennas, %4 field(s), %5 spectral window(s)")
                             .arg(QFileInfo(path).fileName())
                             .arg(summary.rows)
                             .arg(summary.antennas_used)
                             .arg(summary.fields.size())
                             .arg(summary.spectral_windows.size()));
  emit datasetLoaded(path);
}

void MainWindow::onFailed(const QString& path, const QString& message) {
  busy_bar_->hide();
  summary_panel_->showError(path, message);
  status_label_->setText(tr("Could not open %1").arg(QFileInfo(path).fileName()));
  emit datasetFailed(path, message);
}

}  // namespace apertura::gui
