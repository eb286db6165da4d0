#include "core/project/ds9_regions.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>

#include "core/util/atomic_file.h"
#include "core/util/input_error.h"

namespace apertura::project {
namespace {

constexpr double kDeg = M_PI / 180.0;

enum class CoordSystem { Image, Sky };

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos)
    return {};
  const auto last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// Errors of one line: "<file>: line N: <problem>".
class LineContext {
 public:
  LineContext(const std::string& source, int line) : source_(source), line_(line) {}
  [[noreturn]] void fail(const std::string& problem) const {
    throw InputError(source_, "line " + std::to_string(line_) + ": " + problem);
  }

 private:
  const std::string& source_;
  int line_;
};

// A whole token as a number; nullopt when it is not one.
std::optional<double> toNumber(const std::string& token) {
  if (token.empty())
    return std::nullopt;
  const char* begin = token.data();
  const char* end = begin + token.size();
  if (*begin == '+')
    ++begin;
  double value = 0.0;
  const auto result = std::from_chars(begin, end, value);
  if (result.ec != std::errc() || result.ptr != end || !std::isfinite(value))
    return std::nullopt;
  return value;
}

double number(const LineContext& ctx, const std::string& token, const std::string& what) {
  const auto v = toNumber(token);
  if (!v)
    ctx.fail("expected a number for the " + what + ", got '" + token + "'");
  return *v;
}

// "a:b:c" or "a<u1>b<u2>c<u3>" (units such as h m s or d m s) -> a + b/60 + c/3600 with the sign
// of the first field.
std::optional<double> sexagesimal(const std::string& token, const std::string& separators) {
  std::vector<std::string> fields;
  std::string current;
  for (char c : token) {
    if (separators.find(c) != std::string::npos) {
      fields.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty())
    fields.push_back(current);
  if (fields.empty() || fields.size() > 3)
    return std::nullopt;
  const bool negative = !fields[0].empty() && fields[0][0] == '-';
  double value = 0.0, scale = 1.0;
  for (const auto& f : fields) {
    const auto v = toNumber(f);
    if (!v)
      return std::nullopt;
    value += std::abs(*v) * scale;
    scale /= 60.0;
  }
  return negative ? -value : value;
}

double rightAscension(const LineContext& ctx, const std::string& token) {
  std::optional<double> deg;
  if (token.find(':') != std::string::npos) {
    if (const auto h = sexagesimal(token, ":"))
      deg = *h * 15.0;
  } else if (token.find('h') != std::string::npos) {
    if (const auto h = sexagesimal(token, "hms"))
      deg = *h * 15.0;
  } else {
    const std::string t =
        !token.empty() && token.back() == 'd' ? token.substr(0, token.size() - 1) : token;
    deg = toNumber(t);
  }
  if (!deg)
    ctx.fail("expected a right ascension (degrees, hh:mm:ss.s or 12h30m00s), got '" + token + "'");
  return *deg * kDeg;
}

double declination(const LineContext& ctx, const std::string& token) {
  std::optional<double> deg;
  if (token.find(':') != std::string::npos) {
    deg = sexagesimal(token, ":");
  } else if (token.find('m') != std::string::npos || token.find('s') != std::string::npos) {
    deg = sexagesimal(token, "dms");
  } else {
    const std::string t =
        !token.empty() && token.back() == 'd' ? token.substr(0, token.size() - 1) : token;
    deg = toNumber(t);
  }
  if (!deg || std::abs(*deg) > 90.0)
    ctx.fail("expected a declination (degrees, +dd:mm:ss.s or 12d30m00s), got '" + token + "'");
  return *deg * kDeg;
}

// Converts one shape's arguments to 0-based pixels: positions, sizes along x or y, angles.
class Converter {
 public:
  Converter(const LineContext& ctx, CoordSystem system, const std::optional<RegionSkyGrid>& grid)
      : ctx_(ctx), system_(system), grid_(grid) {}

  // (x, y) of the position held by tokens[i], tokens[i + 1].
  std::pair<double, double> position(const std::vector<std::string>& t, std::size_t i) const {
    if (system_ == CoordSystem::Image)
      return {number(ctx_, t[i], "x position") - 1.0, number(ctx_, t[i + 1], "y position") - 1.0};
    const double ra = rightAscension(ctx_, t[i]);
    const double dec = declination(ctx_, t[i + 1]);
    const std::vector<double> xy = skyToPixels(*grid_, {ra, dec});
    if (!std::isfinite(xy[0]) || !std::isfinite(xy[1]))
      ctx_.fail("position " + t[i] + " " + t[i + 1] + " is not on the image's projection");
    return {xy[0], xy[1]};
  }

  // A positive size (width or radius) in pixels; along x when `along_x`, else along y.
  double size(const std::string& token, bool along_x, const std::string& what) const {
    double pixels = 0.0;
    if (system_ == CoordSystem::Image) {
      pixels = number(ctx_, token, what);
    } else {
      const char unit = token.empty() ? '\0' : token.back();
      const std::string digits = std::string("\"'dri").find(unit) != std::string::npos
                                     ? token.substr(0, token.size() - 1)
                                     : token;
      const double v = number(ctx_, digits, what);
      const double cell = std::abs(along_x ? grid_->cell_x_rad : grid_->cell_y_rad);
      switch (unit) {
        case '"':
          pixels = v * kDeg / 3600.0 / cell;
          break;
        case '\'':
          pixels = v * kDeg / 60.0 / cell;
          break;
        case 'r':
          pixels = v / cell;
          break;
        case 'i':
          pixels = v;
          break;
        default:  // 'd' or no unit: degrees, as DS9 reads sky sizes
          pixels = v * kDeg / cell;
      }
    }
    if (!(pixels > 0.0))
      ctx_.fail("the " + what + " must be positive, got '" + token + "'");
    return pixels;
  }

  // Degrees counter-clockwise from +x on the image. On a sky grid with east to the right (both
  // cells of one sign) the sky's sense of rotation is mirrored on the pixels.
  double angle(const std::string& token) const {
    const double a = number(ctx_, token, "angle");
    if (system_ == CoordSystem::Sky && grid_->cell_x_rad * grid_->cell_y_rad > 0.0)
      return -a;
    return a;
  }

 private:
  const LineContext& ctx_;
  CoordSystem system_;
  const std::optional<RegionSkyGrid>& grid_;
};

void expectCount(const LineContext& ctx, const std::string& shape,
                 const std::vector<std::string>& args, std::size_t low, std::size_t high,
                 const std::string& form) {
  if (args.size() < low || args.size() > high) {
    ctx.fail(shape + " takes " + form + ", got " + std::to_string(args.size()) + " value(s)" +
             (args.size() > high ? " (annuli and multi-size shapes are not supported)" : ""));
  }
}

MaskRegion boxRegion(const Converter& c, const LineContext& ctx,
                     const std::vector<std::string>& a) {
  expectCount(ctx, "box", a, 4, 5, "(x, y, width, height[, angle])");
  const auto [cx, cy] = c.position(a, 0);
  double w = c.size(a[2], true, "box width");
  double h = c.size(a[3], false, "box height");
  const double angle = a.size() == 5 ? c.angle(a[4]) : 0.0;
  const double quarter = std::fmod(std::fmod(angle, 180.0) + 180.0, 180.0);
  if (quarter == 0.0 || quarter == 90.0) {
    if (quarter == 90.0)
      std::swap(w, h);
    return {"rectangle", false, {cx - w / 2.0, cy - h / 2.0, cx + w / 2.0, cy + h / 2.0}};
  }
  // A rotated box is the polygon of its corners (counter-clockwise from bottom-left).
  const double t = angle * kDeg;
  const double ct = std::cos(t), st = std::sin(t);
  MaskRegion r{"polygon", false, {}};
  const double corners[4][2] = {{-0.5, -0.5}, {0.5, -0.5}, {0.5, 0.5}, {-0.5, 0.5}};
  for (const auto& k : corners) {
    const double u = k[0] * w, v = k[1] * h;
    r.values.push_back(cx + u * ct - v * st);
    r.values.push_back(cy + u * st + v * ct);
  }
  return r;
}

MaskRegion ellipseRegion(const Converter& c, const LineContext& ctx,
                         const std::vector<std::string>& a) {
  expectCount(ctx, "ellipse", a, 4, 5, "(x, y, radius1, radius2[, angle])");
  const auto [cx, cy] = c.position(a, 0);
  const double r1 = c.size(a[2], true, "ellipse radius");
  const double r2 = c.size(a[3], false, "ellipse radius");
  const double angle = a.size() == 5 ? c.angle(a[4]) : 0.0;
  return {"ellipse", false, {cx, cy, r1, r2, angle}};
}

MaskRegion circleRegion(const Converter& c, const LineContext& ctx,
                        const std::vector<std::string>& a) {
  expectCount(ctx, "circle", a, 3, 3, "(x, y, radius)");
  const auto [cx, cy] = c.position(a, 0);
  const double r = c.size(a[2], false, "circle radius");
  return {"ellipse", false, {cx, cy, r, r, 0.0}};
}

MaskRegion polygonRegion(const Converter& c, const LineContext& ctx,
                         const std::vector<std::string>& a) {
  if (a.size() < 6 || a.size() % 2 != 0) {
    ctx.fail("polygon takes at least 3 vertices as x, y pairs, got " + std::to_string(a.size()) +
             " value(s)");
  }
  MaskRegion r{"polygon", false, {}};
  for (std::size_t i = 0; i < a.size(); i += 2) {
    const auto [x, y] = c.position(a, i);
    r.values.push_back(x);
    r.values.push_back(y);
  }
  return r;
}

std::vector<std::string> splitArguments(const std::string& inside) {
  std::vector<std::string> out;
  std::string current;
  for (char ch : inside) {
    if (ch == ',' || std::isspace(static_cast<unsigned char>(ch))) {
      if (!current.empty())
        out.push_back(current);
      current.clear();
    } else {
      current += ch;
    }
  }
  if (!current.empty())
    out.push_back(current);
  return out;
}

// One statement of a line (lines may hold several, separated by ';').
class StatementReader {
 public:
  StatementReader(const std::optional<RegionSkyGrid>& grid, std::vector<MaskRegion>& out)
      : grid_(grid), out_(out) {}

  void read(const LineContext& ctx, const std::string& statement) {
    const std::string word = lower(statement);
    if (word.rfind("global", 0) == 0)
      return;  // display properties only
    if (word == "image" || word == "physical") {
      system_ = CoordSystem::Image;
      return;
    }
    if (word == "fk5" || word == "icrs" || word == "j2000") {
      if (!grid_ || !grid_->valid()) {
        ctx.fail("sky coordinates (" + word +
                 ") need the image's sky grid; open a data set and make an image first, or "
                 "use image coordinates");
      }
      system_ = CoordSystem::Sky;
      return;
    }
    static const char* kOtherSystems[] = {"fk4",    "b1950",     "galactic", "ecliptic",
                                          "linear", "amplifier", "detector"};
    const bool other_wcs = word.rfind("wcs", 0) == 0 && word.find('(') == std::string::npos;
    if (other_wcs || std::find(std::begin(kOtherSystems), std::end(kOtherSystems), word) !=
                         std::end(kOtherSystems)) {
      ctx.fail("coordinate system '" + word + "' is not supported (use image, fk5 or icrs)");
    }
    readShape(ctx, statement);
  }

 private:
  void readShape(const LineContext& ctx, std::string s) {
    bool subtract = false;
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
      subtract = s[0] == '-';
      s = trim(s.substr(1));
    }
    const auto open = s.find('(');
    const auto close = s.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open)
      ctx.fail("expected a region such as box(x, y, w, h, angle), got '" + s + "'");
    if (!trim(s.substr(close + 1)).empty())
      ctx.fail("unexpected text after the region: '" + trim(s.substr(close + 1)) + "'");
    const std::string shape = lower(trim(s.substr(0, open)));
    const std::vector<std::string> args = splitArguments(s.substr(open + 1, close - open - 1));
    const Converter c(ctx, system_, grid_);
    MaskRegion r;
    if (shape == "box" || shape == "rotbox")
      r = boxRegion(c, ctx, args);
    else if (shape == "ellipse")
      r = ellipseRegion(c, ctx, args);
    else if (shape == "circle")
      r = circleRegion(c, ctx, args);
    else if (shape == "polygon")
      r = polygonRegion(c, ctx, args);
    else
      ctx.fail("unsupported region shape '" + shape +
               "' (supported: box, ellipse, circle, polygon)");
    r.subtract = subtract;
    out_.push_back(std::move(r));
  }

  const std::optional<RegionSkyGrid>& grid_;
  std::vector<MaskRegion>& out_;
  CoordSystem system_ = CoordSystem::Image;  // DS9's default (physical) reads as image here
};

std::string formatNumber(double v) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), v);
  return std::string(buffer, result.ptr);
}

std::string joined(const std::vector<double>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i)
    out += (i ? "," : "") + formatNumber(values[i]);
  return out;
}

}  // namespace

std::vector<MaskRegion> parseDs9Regions(const std::string& text, const std::string& source,
                                        const std::optional<RegionSkyGrid>& grid) {
  std::vector<MaskRegion> regions;
  StatementReader reader(grid, regions);
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const LineContext ctx(source, number);
    // '#' starts a comment or the region's display properties (DS9 writes both that way).
    const std::string body = line.substr(0, line.find('#'));
    std::size_t start = 0;
    while (start <= body.size()) {
      const auto end = body.find(';', start);
      const std::string statement =
          trim(body.substr(start, end == std::string::npos ? std::string::npos : end - start));
      if (!statement.empty())
        reader.read(ctx, statement);
      if (end == std::string::npos)
        break;
      start = end + 1;
    }
  }
  return regions;
}

std::vector<MaskRegion> readDs9Regions(const std::string& path,
                                       const std::optional<RegionSkyGrid>& grid) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(path, "cannot open the region file");
  std::ostringstream content;
  content << in.rdbuf();
  return parseDs9Regions(content.str(), path, grid);
}

std::string formatDs9Regions(const std::vector<MaskRegion>& regions,
                             const std::optional<RegionSkyGrid>& grid) {
  const bool sky = grid && grid->valid();
  std::string out =
      "# Region file format: DS9 version 4.1\n" +
      std::string(
          sky ? "# Apertura mask: J2000 RA/Dec in degrees, sizes in arcsec; '-' marks "
                "regions that subtract\n"
              : "# Apertura mask: 1-based image pixels; '-' marks regions that subtract\n") +
      "global color=green dashlist=8 3 width=1 font=\"helvetica 10 normal roman\" select=1 "
      "highlite=1 dash=0 fixed=0 edit=1 move=1 delete=1 include=1 source=1\n" +
      (sky ? "fk5\n" : "image\n");
  // 0-based pixels to what the line holds: "x,y" 1-based, or "ra,dec" in degrees.
  const auto position = [&](double x, double y) -> std::vector<double> {
    if (!sky)
      return {x + 1.0, y + 1.0};
    const std::vector<double> radec = pixelsToSky(*grid, {x, y});
    return {radec[0] / kDeg, radec[1] / kDeg};
  };
  // A size in pixels along x or y: pixels, or arcsec with DS9's '"' suffix.
  const auto size = [&](double pixels, bool along_x) {
    if (!sky)
      return formatNumber(pixels);
    const double cell = std::abs(along_x ? grid->cell_x_rad : grid->cell_y_rad);
    return formatNumber(pixels * cell / kDeg * 3600.0) + "\"";
  };
  // Degrees from +x on the image; on a sky grid with east to the right, mirrored (as read).
  const auto angle = [&](double a) {
    return sky && grid->cell_x_rad * grid->cell_y_rad > 0.0 ? -a : a;
  };
  for (std::size_t i = 0; i < regions.size(); ++i) {
    const MaskRegion& r = regions[i];
    const std::vector<double>& v = r.values;
    std::string line = r.subtract ? "-" : "";
    if (r.shape == "rectangle" && v.size() == 4) {
      line += "box(" + joined(position((v[0] + v[2]) / 2.0, (v[1] + v[3]) / 2.0)) + "," +
              size(std::abs(v[2] - v[0]), true) + "," + size(std::abs(v[3] - v[1]), false) + ",0)";
    } else if (r.shape == "ellipse" && v.size() == 5) {
      line += "ellipse(" + joined(position(v[0], v[1])) + "," + size(v[2], true) + "," +
              size(v[3], false) + "," + formatNumber(angle(v[4])) + ")";
    } else if (r.shape == "polygon" && v.size() >= 6 && v.size() % 2 == 0) {
      std::vector<double> vertices;
      for (std::size_t k = 0; k < v.size(); k += 2) {
        const std::vector<double> p = position(v[k], v[k + 1]);
        vertices.insert(vertices.end(), p.begin(), p.end());
      }
      line += "polygon(" + joined(vertices) + ")";
    } else {
      throw InputError("mask region " + std::to_string(i + 1),
                       "cannot be written as a DS9 region (shape '" + r.shape + "' with " +
                           std::to_string(v.size()) + " values)");
    }
    out += line + (r.subtract ? " # color=red dash=1\n" : "\n");
  }
  return out;
}

void writeDs9Regions(const std::string& path, const std::vector<MaskRegion>& regions,
                     const std::optional<RegionSkyGrid>& grid) {
  writeFileAtomically(path, formatDs9Regions(regions, grid));
}

}  // namespace apertura::project
