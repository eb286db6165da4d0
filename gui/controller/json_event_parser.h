#pragma once

#include <QByteArray>
#include <QString>

#include "core/engine/run_observer.h"

namespace apertura::gui {

// Turns one line of `apertura-cli run --json` output into calls on a RunObserver, so that a run in
// another process (mpirun, a batch wrapper) feeds the same observer path as an in-process run.
// Kept free of QProcess so it can be tested on recorded lines.
class JsonEventParser {
 public:
  enum class Kind {
    Observer,   // forwarded to the observer (stage, progress, iteration, resources, warning)
    Finished,   // "finished": the run ended normally; message is the summary line
    Wrote,      // "wrote": an output file; path() holds its path
    Cancelled,  // "cancelled"
    Snapshot,   // "snapshot": an image written during the run (--snapshot-dir); path, name,
                // iteration
    Message,    // another named event: shown as text
    NotJson,    // a line that is not a JSON object (e.g. launcher chatter): shown as text
    Malformed,  // a JSON object without the fields its event needs
  };
  struct Result {
    Result() = default;
    Result(Kind k, QString text, QString file) : kind(k), message(text), path(file) {}

    Kind kind = Kind::NotJson;
    QString message;     // readable text for the log panel (empty for plain observer events)
    QString path;        // Kind::Wrote and Kind::Snapshot: the file
    QString name;        // Kind::Snapshot: the image ("model", "dirty", ...)
    int iteration = -1;  // Kind::Snapshot
  };

  // Parses `line` (without its newline) and, for observer events, calls `observer`.
  static Result feed(const QByteArray& line, apertura::engine::RunObserver& observer);
};

}  // namespace apertura::gui
