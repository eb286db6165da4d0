#pragma once

#include <QGroupBox>

#include <map>
#include <string>

#include "core/project/project_settings.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace apertura::gui {

class PlaneListEdit;

// The spectral side of the run settings: MFS (one image of every selected channel, with a flat
// or linear spectrum: imaging.mfs_spectrum) or a cube (imaging.spectral_mode,
// imaging.channels_per_plane), and the λ of the regularizers that act
// across the planes of a cube (tv-spectral, tsv-spectral). Their other fields (mask, epsilon)
// come from the project and pass through unchanged.
class SpectralSettingsBox : public QGroupBox {
  Q_OBJECT

 public:
  explicit SpectralSettingsBox(QWidget* parent = nullptr);

  // Writes the mode and channels per plane into `s` and appends the across-plane terms with a
  // non-zero λ (and their planes) to s.regularizers. False (with `error` set and the field
  // marked) when a λ field is not a number or a planes field does not parse.
  bool apply(apertura::project::ProjectSettings& s, QString* error) const;
  // Shows the spectral settings and across-plane terms of `s`.
  void load(const apertura::project::ProjectSettings& s);
  // The planes a cube run of the current data set would image (shown next to the controls);
  // 0 hides the count (MFS, or no data set yet).
  void setPlaneCount(int planes);

  QComboBox* modeBox() const { return mode_; }
  QComboBox* mfsSpectrumBox() const { return spectrum_; }
  QSpinBox* channelsPerPlaneBox() const { return channels_; }
  QLineEdit* lambdaEdit(const std::string& type) const;
  // The planes an across-plane term couples (consecutive listed planes; empty: every plane).
  QLineEdit* planesEdit(const std::string& type) const;
  QString planeCountText() const;
  // Cube mode chosen (plane lists apply); false for MFS.
  bool isCube() const;

 signals:
  void changed();

 private:
  void updateEnabled();

  QComboBox* mode_;
  QComboBox* spectrum_;  // imaging.mfs_spectrum
  QSpinBox* channels_;
  QLabel* planes_;
  std::map<std::string, QLineEdit*> lambdas_;          // tv-spectral, tsv-spectral
  std::map<std::string, PlaneListEdit*> plane_edits_;  // the same types: regularizers[i].planes
  // The across-plane terms of the last project loaded (mask, parameters kept on apply).
  std::map<std::string, apertura::project::RegularizerSettings> loaded_;
};

}  // namespace apertura::gui
