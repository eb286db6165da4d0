#pragma once

#include <QDialog>

#include "core/sim/simulation_request.h"

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace apertura::gui {

// File > New simulated data set: the sky (components, one per line, in the same text form as
// `apertura-cli simulate`), the array, the observation and the noise, and where to write the
// data set (a Measurement Set or a UVFITS file).
class SimulationDialog : public QDialog {
  Q_OBJECT

 public:
  explicit SimulationDialog(QWidget* parent = nullptr);

  // The request as edited. Throws InputError for an unknown sky component line; the specs
  // themselves are parsed (and errors reported) by sim::runSimulation.
  apertura::sim::SimulationRequest request() const;
  void setOutput(const QString& path);

 private:
  void chooseOutput();
  // The format follows the output's extension (.ms or .uvfits/.uvf/.fits/.fit) and vice versa.
  void formatChosen(int index);
  void outputEdited(const QString& path);

  QPlainTextEdit* sky_;
  QComboBox* array_;
  QLineEdit* ra_;
  QLineEdit* dec_;
  QDoubleSpinBox* hours_;
  QDoubleSpinBox* integration_;
  QDoubleSpinBox* freq_ghz_;
  QSpinBox* nchan_;
  QDoubleSpinBox* chan_width_mhz_;
  QDoubleSpinBox* sigma_;
  QSpinBox* seed_;
  QLineEdit* output_;
  QComboBox* format_;
};

}  // namespace apertura::gui
