#include "plugins/csv_reader/csv_table.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace apertura_csv {
namespace {

constexpr double kSpeedOfLight = 299792458.0;
constexpr double kDegree = M_PI / 180.0;

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos)
    return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string item;
  while (std::getline(ss, item, ','))
    out.push_back(trim(item));
  if (!line.empty() && line.back() == ',')
    out.emplace_back();
  return out;
}

bool isCommentOrBlank(const std::string& line) {
  const std::string t = trim(line);
  return t.empty() || t[0] == '#';
}

// Index of the first of `names` among the header columns, or -1.
int column(const std::vector<std::string>& header, std::initializer_list<const char*> names,
           const char** which) {
  for (const char* n : names) {
    auto it = std::find(header.begin(), header.end(), n);
    if (it != header.end()) {
      *which = n;
      return int(it - header.begin());
    }
  }
  return -1;
}

struct Column {
  int index = -1;
  const char* name = "";
  double scale = 1.0;       // multiplies the value
  bool per_lambda = false;  // in wavelengths: times c / f
};

}  // namespace

bool looksLikeCsvVisibilities(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  for (int n = 0; n < 1000 && std::getline(in, line); ++n) {
    if (isCommentOrBlank(line))
      continue;
    const auto header = split(lower(line));
    const char* which = nullptr;
    return column(header, {"u_m", "u_lambda"}, &which) >= 0 &&
           column(header, {"frequency_hz", "frequency_ghz"}, &which) >= 0;
  }
  return false;
}

CsvTable readCsvTable(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error("cannot open the file");
  CsvTable t;
  std::string line;
  std::size_t line_no = 0;
  std::vector<std::string> header;
  auto fail = [&](const std::string& what) {
    throw std::runtime_error("line " + std::to_string(line_no) + ": " + what);
  };
  auto comment = [&](const std::string& text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos)
      return;
    const std::string key = lower(trim(text.substr(1, eq - 1)));
    const std::string value = trim(text.substr(eq + 1));
    if (key == "telescope") {
      t.telescope = value;
    } else if (key == "phase_centre_deg" || key == "phase_center_deg") {
      std::istringstream ss(value);
      double ra = 0.0, dec = 0.0;
      if (!(ss >> ra >> dec) || std::abs(dec) > 90.0)
        fail("phase_centre_deg: expected \"<ra> <dec>\" in degrees, got '" + value + "'");
      t.has_phase_centre = true;
      t.ra_rad = ra * kDegree;
      t.dec_rad = dec * kDegree;
    }
  };
  while (std::getline(in, line)) {
    ++line_no;
    if (!isCommentOrBlank(line)) {
      header = split(lower(line));
      break;
    }
    comment(trim(line));
  }
  if (header.empty())
    throw std::runtime_error("no header line (expected column names such as u_m,v_m,...)");

  Column u, v, w, f, re, im, wt;
  auto need = [&](Column& c, std::initializer_list<const char*> names, const char* what) {
    c.index = column(header, names, &c.name);
    if (c.index < 0 && what)
      fail("the header has no " + std::string(what) + " column");
  };
  need(u, {"u_m", "u_lambda"}, "u (u_m or u_lambda)");
  need(v, {"v_m", "v_lambda"}, "v (v_m or v_lambda)");
  need(w, {"w_m", "w_lambda"}, nullptr);
  need(f, {"frequency_hz", "frequency_ghz"}, "frequency (frequency_hz or frequency_ghz)");
  need(re, {"re_jy", "re"}, "real part (re_jy)");
  need(im, {"im_jy", "im"}, "imaginary part (im_jy)");
  need(wt, {"weight", "sigma_jy"}, "weight (weight or sigma_jy)");
  if (f.name == std::string("frequency_ghz"))
    f.scale = 1e9;
  for (Column* c : {&u, &v, &w})
    c->per_lambda = c->index >= 0 && std::string(c->name).find("lambda") != std::string::npos;
  const bool sigma = wt.name == std::string("sigma_jy");

  while (std::getline(in, line)) {
    ++line_no;
    if (isCommentOrBlank(line))
      continue;
    const auto cells = split(line);
    if (cells.size() != header.size()) {
      fail("expected " + std::to_string(header.size()) + " comma-separated values, got " +
           std::to_string(cells.size()));
    }
    auto number = [&](const Column& c) {
      if (c.index < 0)
        return 0.0;
      const std::string& s = cells[std::size_t(c.index)];
      char* end = nullptr;
      errno = 0;
      const double x = std::strtod(s.c_str(), &end);
      if (s.empty() || end != s.c_str() + s.size())
        fail("column '" + std::string(c.name) + "': expected a number, got '" + s + "'");
      return x * c.scale;
    };
    const double freq = number(f);
    if (!(freq > 0.0) || !std::isfinite(freq))
      fail("column '" + std::string(f.name) + "': the frequency must be positive");
    for (const Column* c : {&u, &v, &w}) {
      const double x = number(*c);
      t.uvw_m.push_back(c->per_lambda ? x * kSpeedOfLight / freq : x);
    }
    t.frequency_hz.push_back(freq);
    t.re.push_back(number(re));
    t.im.push_back(number(im));
    double weight = number(wt);
    if (sigma)
      weight = weight > 0.0 ? 1.0 / (weight * weight) : 0.0;
    if (weight < 0.0)
      fail("column '" + std::string(wt.name) + "': must not be negative");
    t.weight.push_back(weight);
  }
  return t;
}

}  // namespace apertura_csv
