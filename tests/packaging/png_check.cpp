// packaging_png_check: tells whether a PNG shows something. Used by the packaging test on the
// screenshot taken by the installed application: a window that failed to paint is one flat colour
// (or a handful, for a frame), a real main window has text, plots and images.
// Usage: packaging_png_check FILE MIN_WIDTH MIN_HEIGHT
// Exit 0 when the file loads, is at least MIN_WIDTH x MIN_HEIGHT, has more than 64 distinct colours
// and no colour covers more than 90 % of the pixels; exit 1 otherwise, with the reason.
#include <QColor>
#include <QHash>
#include <QImage>
#include <QString>
#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace {

constexpr int kMinColours = 64;
constexpr double kMaxDominantFraction = 0.90;

int fail(const char* path, const QString& why) {
  std::fprintf(stderr, "packaging_png_check: %s: %s\n", path, qPrintable(why));
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: packaging_png_check FILE MIN_WIDTH MIN_HEIGHT\n");
    return 2;
  }
  const char* path = argv[1];
  const int min_width = std::atoi(argv[2]);
  const int min_height = std::atoi(argv[3]);

  QImage image;
  if (!image.load(QString::fromLocal8Bit(path), "PNG"))
    return fail(path, "not a readable PNG file");
  if (image.width() < min_width || image.height() < min_height)
    return fail(path, QString("%1 x %2 pixels, expected at least %3 x %4")
                          .arg(image.width())
                          .arg(image.height())
                          .arg(min_width)
                          .arg(min_height));

  image = image.convertToFormat(QImage::Format_RGB32);
  QHash<QRgb, qint64> counts;
  for (int y = 0; y < image.height(); ++y) {
    const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(y));
    for (int x = 0; x < image.width(); ++x)
      ++counts[row[x]];
  }
  qint64 dominant = 0;
  for (auto it = counts.cbegin(); it != counts.cend(); ++it)
    dominant = std::max(dominant, it.value());
  const double pixels = double(image.width()) * image.height();
  const double dominant_fraction = double(dominant) / pixels;
  std::printf("%s: %d x %d, %lld colours, most common colour %.1f %%\n", path, image.width(),
              image.height(), static_cast<long long>(counts.size()), 100.0 * dominant_fraction);
  if (counts.size() <= kMinColours)
    return fail(path, QString("blank: only %1 colours").arg(counts.size()));
  if (dominant_fraction > kMaxDominantFraction)
    return fail(path, QString("blank: one colour covers %1 % of the picture")
                          .arg(100.0 * dominant_fraction, 0, 'f', 1));
  return 0;
}
