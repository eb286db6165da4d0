#include "gui/controller/json_event_parser.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace apertura::gui {

namespace {
using Result = JsonEventParser::Result;
using Kind = JsonEventParser::Kind;

Result malformed(const QString& event, const char* what) {
  return {Kind::Malformed,
          QStringLiteral("apertura-cli: event \"%1\" lacks %2").arg(event, QLatin1String(what)),
          {}};
}

bool hasNumber(const QJsonObject& o, const char* key) {
  return o.value(QLatin1String(key)).isDouble();
}
}  // namespace

JsonEventParser::Result JsonEventParser::feed(const QByteArray& line,
                                              apertura::engine::RunObserver& observer) {
  const QByteArray trimmed = line.trimmed();
  QJsonParseError error{};
  const QJsonDocument doc = QJsonDocument::fromJson(trimmed, &error);
  if (error.error != QJsonParseError::NoError || !doc.isObject())
    return {Kind::NotJson, QString::fromUtf8(trimmed), {}};
  const QJsonObject o = doc.object();
  const QString event = o.value(QLatin1String("event")).toString();
  if (event.isEmpty())
    return {
        Kind::Malformed,
        QStringLiteral("apertura-cli: JSON line without \"event\": ") + QString::fromUtf8(trimmed),
        {}};
  const std::string stage = o.value(QLatin1String("stage")).toString().toStdString();
  const QString message = o.value(QLatin1String("message")).toString();

  if (event == QLatin1String("stage_started")) {
    if (stage.empty())
      return malformed(event, "\"stage\"");
    observer.stageStarted(stage);
    return {Kind::Observer, {}, {}};
  }
  if (event == QLatin1String("stage_finished")) {
    if (stage.empty() || !hasNumber(o, "seconds"))
      return malformed(event, "\"stage\" or numeric \"seconds\"");
    observer.stageFinished(stage, o.value(QLatin1String("seconds")).toDouble());
    return {Kind::Observer, {}, {}};
  }
  if (event == QLatin1String("progress")) {
    if (!hasNumber(o, "fraction"))
      return malformed(event, "numeric \"fraction\"");
    observer.progress(o.value(QLatin1String("fraction")).toDouble(), message.toStdString());
    return {Kind::Observer, {}, {}};
  }
  if (event == QLatin1String("iteration")) {
    if (!hasNumber(o, "iteration") || !hasNumber(o, "objective"))
      return malformed(event, "numeric \"iteration\" and \"objective\"");
    apertura::engine::IterationMetrics m;
    m.iteration = o.value(QLatin1String("iteration")).toInt();
    m.objective = o.value(QLatin1String("objective")).toDouble();
    m.chi2_per_dof = o.value(QLatin1String("chi2_per_dof")).toDouble();
    m.gradient_norm = o.value(QLatin1String("gradient_norm")).toDouble();
    m.step = o.value(QLatin1String("step")).toDouble();
    m.seconds = o.value(QLatin1String("seconds")).toDouble();
    const QJsonObject terms = o.value(QLatin1String("terms")).toObject();
    for (auto it = terms.begin(); it != terms.end(); ++it)
      m.terms.emplace_back(it.key().toStdString(), it.value().toDouble());
    observer.iteration(m);
    return {Kind::Observer, {}, {}};
  }
  if (event == QLatin1String("resources")) {
    apertura::engine::ResourceSample s;
    s.wall_s = o.value(QLatin1String("wall_s")).toDouble();
    s.cpu_s = o.value(QLatin1String("cpu_s")).toDouble();
    s.rss_bytes =
        static_cast<decltype(s.rss_bytes)>(o.value(QLatin1String("rss_bytes")).toDouble());
    s.peak_rss_bytes = static_cast<decltype(s.peak_rss_bytes)>(
        o.value(QLatin1String("peak_rss_bytes")).toDouble());
    s.tracked_bytes =
        static_cast<decltype(s.tracked_bytes)>(o.value(QLatin1String("tracked_bytes")).toDouble());
    s.gpu_bytes =
        static_cast<decltype(s.gpu_bytes)>(o.value(QLatin1String("gpu_bytes")).toDouble());
    observer.resources(s);
    return {Kind::Observer, {}, {}};
  }
  if (event == QLatin1String("warning")) {
    observer.warning(message.toStdString());
    return {Kind::Observer, {}, {}};
  }
  if (event == QLatin1String("finished"))
    return {Kind::Finished, message, {}};
  if (event == QLatin1String("wrote")) {
    // The CLI writes "wrote <path>"; the path is what the GUI loads afterwards.
    QString path = message;
    if (path.startsWith(QLatin1String("wrote ")))
      path = path.mid(6);
    return {Kind::Wrote, message, path};
  }
  if (event == QLatin1String("snapshot")) {
    // {"event":"snapshot","iteration":N,"name":"model","model":PATH,"path":PATH,...}: the file is
    // complete when the line is printed.
    const QString name = o.value(QLatin1String("name")).toString();
    QString path = o.value(QLatin1String("path")).toString();
    if (path.isEmpty() && !name.isEmpty())
      path = o.value(name).toString();
    if (name.isEmpty() || path.isEmpty() || !hasNumber(o, "iteration"))
      return malformed(event, "\"name\", a path and numeric \"iteration\"");
    Result r{Kind::Snapshot, {}, path};
    r.name = name;
    r.iteration = o.value(QLatin1String("iteration")).toInt();
    return r;
  }
  if (event == QLatin1String("cancelled"))
    return {Kind::Cancelled, message.isEmpty() ? QStringLiteral("cancelled") : message, {}};
  return {Kind::Message, event + QStringLiteral(": ") + message, {}};
}

}  // namespace apertura::gui
