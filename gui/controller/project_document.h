#pragma once

#include <QObject>
#include <QString>
#include <string>

namespace apertura::gui {

// The identity and saved state of the open project: its file (empty until first saved) and
// whether the settings differ from what was last saved or opened. States are compared as text
// (the project's JSON), so changing a value and changing it back is not a modification.
class ProjectDocument : public QObject {
  Q_OBJECT

 public:
  explicit ProjectDocument(QObject* parent = nullptr);

  QString path() const { return path_; }
  // The file name, or "Untitled" before the first save.
  QString displayName() const;
  bool isModified() const { return modified_; }

  // After New, Open or Save: `state` is now the saved state of the project at `path`.
  void reset(const QString& path, const std::string& state);
  // The settings now in the window; updates isModified().
  void setCurrentState(const std::string& state);

 signals:
  // The path or the modified flag changed (the window title follows).
  void changed();

 private:
  QString path_;
  std::string saved_;
  bool modified_ = false;
};

}  // namespace apertura::gui
