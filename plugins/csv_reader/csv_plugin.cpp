// The "csv" plugin: a reader for the simple CSV visibility format of csv_table.h and
// docs/plugins.md (what MPoL or eht-imaging users can export with a few lines of numpy).
#include <cstdio>
#include <exception>
#include <string>

#include "core/plugin/plugin_api.h"
#include "plugins/csv_reader/csv_table.h"

namespace {

using apertura_csv::CsvTable;

int probe(const char* path) {
  try {
    return apertura_csv::looksLikeCsvVisibilities(path) ? 1 : 0;
  } catch (...) {
    return 0;
  }
}

void* open(const char* path, AperturaVisibilityTableV1* table, char* error, size_t error_size) {
  try {
    auto* t = new CsvTable(apertura_csv::readCsvTable(path));
    *table = AperturaVisibilityTableV1{};
    table->rows = t->rows();
    table->channels = 1;
    table->uvw_m = t->uvw_m.data();
    table->frequency_hz = t->frequency_hz.data();
    table->re = t->re.data();
    table->im = t->im.data();
    table->weight = t->weight.data();
    table->has_phase_centre = t->has_phase_centre ? 1 : 0;
    table->ra_rad = t->ra_rad;
    table->dec_rad = t->dec_rad;
    table->telescope = t->telescope.empty() ? nullptr : t->telescope.c_str();
    return t;
  } catch (const std::exception& e) {
    std::snprintf(error, error_size, "%s", e.what());
  } catch (...) {
    std::snprintf(error, error_size, "unknown error");
  }
  return nullptr;
}

void close(void* handle) {
  delete static_cast<CsvTable*>(handle);
}

const AperturaReaderV1 kReaders[] = {{
    "CSV",
    "Comma-separated visibilities: u, v, w (m or wavelengths), frequency, re, im, weight",
    "*.csv *.txt",
    probe,
    open,
    close,
}};

const AperturaPluginV2 kPlugin = {
    APERTURA_PLUGIN_HEADER,
    "csv",
    "1.0.0",
    "Reader for a documented CSV visibility format (docs/plugins.md)",
    nullptr,
    0,
    kReaders,
    1,
    nullptr,
    0,
    nullptr,
};

}  // namespace

extern "C" APERTURA_PLUGIN_EXPORT const AperturaPluginV2* apertura_plugin_entry(void) {
  return &kPlugin;
}
