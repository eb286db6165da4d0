#include "core/io/ms_writer.h"

#include <casacore/casa/Arrays/Array.h>
#include <casacore/casa/Arrays/Matrix.h>
#include <casacore/casa/Arrays/Vector.h>
#include <casacore/casa/Exceptions/Error.h>
#include <casacore/measures/Measures/MFrequency.h>
#include <casacore/measures/Measures/Stokes.h>
#include <casacore/ms/MeasurementSets/MSColumns.h>
#include <casacore/ms/MeasurementSets/MeasurementSet.h>
#include <casacore/tables/DataMan/StandardStMan.h>
#include <casacore/tables/DataMan/TiledColumnStMan.h>
#include <casacore/tables/DataMan/TiledShapeStMan.h>
#include <casacore/tables/Tables/SetupNewTab.h>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>

#include "core/io/casacore_lock.h"
#include "core/util/disk_space.h"
#include "core/util/input_error.h"
#include "core/util/open_files.h"

namespace apertura {

namespace cc = casacore;

namespace {

constexpr int kNumCorrelations = 2;
// Files casacore holds open at once while it creates a Measurement Set with its subtables
// (measured: creation fails below about 40 free descriptors).
constexpr long kMsCreationFiles = 48;

cc::Vector<int> correlationTypes(CorrelationBasis basis) {
  cc::Vector<int> c(kNumCorrelations);
  c(0) = basis == CorrelationBasis::Linear ? cc::Stokes::XX : cc::Stokes::RR;
  c(1) = basis == CorrelationBasis::Linear ? cc::Stokes::YY : cc::Stokes::LL;
  return c;
}

bool uniformChannels(const MsLayout& layout) {
  for (const auto& s : layout.spectral_windows) {
    if (s.channel_frequencies_hz.size() != layout.spectral_windows[0].channel_frequencies_hz.size())
      return false;
  }
  return true;
}

// DATA and FLAG live in tiled storage managers (fast block writes, as CASA and WSClean do); with
// one channel count for all spectral windows the cells have a fixed shape.
cc::MeasurementSet createTable(const std::string& path, const MsLayout& layout, bool fixed) {
  cc::TableDesc td = cc::MeasurementSet::requiredTableDesc();
  cc::MeasurementSet::addColumnToDesc(td, cc::MeasurementSet::DATA, 2);
  td.rwColumnDesc("WEIGHT").setShape(cc::IPosition(1, kNumCorrelations));
  td.rwColumnDesc("SIGMA").setShape(cc::IPosition(1, kNumCorrelations));
  const int nchan = static_cast<int>(layout.spectral_windows[0].channel_frequencies_hz.size());
  const int chan_tile = std::min(nchan, 256);
  const int row_tile = std::max(1, 8192 / (kNumCorrelations * chan_tile));
  const cc::IPosition tile(3, kNumCorrelations, chan_tile, row_tile);
  if (fixed) {
    td.rwColumnDesc("DATA").setShape(cc::IPosition(2, kNumCorrelations, nchan));
    td.rwColumnDesc("FLAG").setShape(cc::IPosition(2, kNumCorrelations, nchan));
  }
  cc::SetupNewTable setup(path, td, cc::Table::New);
  // Scalars in the standard storage manager with large buckets (few, big writes); UVW tiled.
  cc::StandardStMan ssm("SSMData", 1 << 18);
  for (const char* col :
       {"TIME", "TIME_CENTROID", "INTERVAL", "EXPOSURE", "ARRAY_ID", "DATA_DESC_ID", "FEED1",
        "FEED2", "FIELD_ID", "FLAG_ROW", "OBSERVATION_ID", "PROCESSOR_ID", "SCAN_NUMBER",
        "STATE_ID", "WEIGHT", "SIGMA", "ANTENNA1", "ANTENNA2"}) {
    setup.bindColumn(col, ssm);
  }
  cc::TiledColumnStMan uvw_sm("TiledUVW", cc::IPosition(2, 3, 16384));
  setup.bindColumn("UVW", uvw_sm);
  if (fixed) {
    cc::TiledColumnStMan data_sm("TiledDATA", tile);
    cc::TiledColumnStMan flag_sm("TiledFLAG", tile);
    setup.bindColumn("DATA", data_sm);
    setup.bindColumn("FLAG", flag_sm);
  } else {
    cc::TiledShapeStMan data_sm("TiledDATA", tile);
    cc::TiledShapeStMan flag_sm("TiledFLAG", tile);
    setup.bindColumn("DATA", data_sm);
    setup.bindColumn("FLAG", flag_sm);
  }
  cc::MeasurementSet ms(setup, 0);
  ms.createDefaultSubtables(cc::Table::New);
  return ms;
}

void fillAntennas(cc::MeasurementSet& ms, cc::MSColumns& cols, const MsLayout& layout) {
  ms.antenna().addRow(layout.antennas.size());
  for (std::size_t i = 0; i < layout.antennas.size(); ++i) {
    const auto& a = layout.antennas[i];
    cc::Vector<double> pos(3);
    for (int k = 0; k < 3; ++k)
      pos(k) = a.position_itrf_m[k];
    cols.antenna().name().put(i, a.name);
    cols.antenna().station().put(i, a.station.empty() ? a.name : a.station);
    cols.antenna().type().put(i, "GROUND-BASED");
    cols.antenna().mount().put(i, a.mount);
    cols.antenna().position().put(i, pos);
    cols.antenna().offset().put(i, cc::Vector<double>(3, 0.0));
    cols.antenna().dishDiameter().put(i, a.dish_diameter_m);
    cols.antenna().flagRow().put(i, false);
  }
}

void fillFeeds(cc::MeasurementSet& ms, cc::MSColumns& cols, const MsLayout& layout) {
  const bool linear = layout.basis == CorrelationBasis::Linear;
  cc::Vector<cc::String> types(2);
  types(0) = linear ? "X" : "R";
  types(1) = linear ? "Y" : "L";
  cc::Vector<double> angles(2, 0.0);
  if (linear)
    angles(1) = 0.5 * M_PI;
  cc::Matrix<cc::Complex> response(2, 2, cc::Complex(0.0f, 0.0f));
  response(0, 0) = response(1, 1) = cc::Complex(1.0f, 0.0f);
  ms.feed().addRow(layout.antennas.size());
  for (std::size_t i = 0; i < layout.antennas.size(); ++i) {
    cols.feed().antennaId().put(i, static_cast<int>(i));
    cols.feed().feedId().put(i, 0);
    cols.feed().spectralWindowId().put(i, -1);
    cols.feed().time().put(i, 0.5 * (layout.start_time_mjd_s + layout.end_time_mjd_s));
    cols.feed().interval().put(i, 0.0);  // valid for all times
    cols.feed().numReceptors().put(i, 2);
    cols.feed().beamId().put(i, -1);
    cols.feed().beamOffset().put(i, cc::Matrix<double>(2, 2, 0.0));
    cols.feed().polarizationType().put(i, types);
    cols.feed().polResponse().put(i, response);
    cols.feed().position().put(i, cc::Vector<double>(3, 0.0));
    cols.feed().receptorAngle().put(i, angles);
  }
}

void fillFields(cc::MeasurementSet& ms, cc::MSColumns& cols, const MsLayout& layout) {
  ms.field().addRow(layout.fields.size());
  for (std::size_t i = 0; i < layout.fields.size(); ++i) {
    cc::Matrix<double> dir(2, 1);
    dir(0, 0) = layout.fields[i].ra_rad;
    dir(1, 0) = layout.fields[i].dec_rad;
    cols.field().name().put(i, layout.fields[i].name);
    cols.field().code().put(i, "");
    cols.field().time().put(i, layout.start_time_mjd_s);
    cols.field().numPoly().put(i, 0);
    cols.field().delayDir().put(i, dir);
    cols.field().phaseDir().put(i, dir);
    cols.field().referenceDir().put(i, dir);
    cols.field().sourceId().put(i, -1);
    cols.field().flagRow().put(i, false);
  }
}

void fillSpectralSetup(cc::MeasurementSet& ms, cc::MSColumns& cols, const MsLayout& layout) {
  const std::size_t nspw = layout.spectral_windows.size();
  ms.spectralWindow().addRow(nspw);
  ms.dataDescription().addRow(nspw);
  for (std::size_t i = 0; i < nspw; ++i) {
    const auto& s = layout.spectral_windows[i];
    const auto nchan = s.channel_frequencies_hz.size();
    cc::Vector<double> freq(nchan), width(nchan, s.channel_width_hz);
    for (std::size_t c = 0; c < nchan; ++c)
      freq(c) = s.channel_frequencies_hz[c];
    cc::Vector<double> abs_width(nchan, std::fabs(s.channel_width_hz));
    auto& spw = cols.spectralWindow();
    spw.name().put(i, s.name);
    spw.chanFreq().put(i, freq);
    spw.chanWidth().put(i, width);
    spw.effectiveBW().put(i, abs_width);
    spw.resolution().put(i, abs_width);
    spw.numChan().put(i, static_cast<int>(nchan));
    spw.refFrequency().put(i, freq(0));
    spw.totalBandwidth().put(i, std::fabs(s.channel_width_hz) * static_cast<double>(nchan));
    spw.measFreqRef().put(i, cc::MFrequency::TOPO);
    spw.netSideband().put(i, 1);
    spw.ifConvChain().put(i, 0);
    spw.freqGroup().put(i, 0);
    spw.freqGroupName().put(i, "");
    spw.flagRow().put(i, false);
    cols.dataDescription().spectralWindowId().put(i, static_cast<int>(i));
    cols.dataDescription().polarizationId().put(i, 0);
    cols.dataDescription().flagRow().put(i, false);
  }
  ms.polarization().addRow(1);
  cc::Matrix<int> products(2, kNumCorrelations);
  for (int p = 0; p < kNumCorrelations; ++p)
    products(0, p) = products(1, p) = p;
  cols.polarization().corrType().put(0, correlationTypes(layout.basis));
  cols.polarization().corrProduct().put(0, products);
  cols.polarization().numCorr().put(0, kNumCorrelations);
  cols.polarization().flagRow().put(0, false);
}

void fillObservation(cc::MeasurementSet& ms, cc::MSColumns& cols, const MsLayout& layout) {
  ms.observation().addRow(1);
  cc::Vector<double> range(2);
  range(0) = layout.start_time_mjd_s;
  range(1) = layout.end_time_mjd_s;
  auto& obs = cols.observation();
  obs.telescopeName().put(0, layout.telescope_name);
  obs.timeRange().put(0, range);
  obs.observer().put(0, layout.observer);
  obs.project().put(0, layout.project);
  obs.releaseDate().put(0, layout.start_time_mjd_s);
  obs.scheduleType().put(0, "");
  obs.schedule().put(0, cc::Vector<cc::String>(1, ""));
  obs.log().put(0, cc::Vector<cc::String>(1, ""));
  obs.flagRow().put(0, false);

  ms.processor().addRow(1);
  cols.processor().type().put(0, "CORRELATOR");
  cols.processor().subType().put(0, "SIMULATOR");
  cols.processor().typeId().put(0, -1);
  cols.processor().modeId().put(0, -1);
  cols.processor().flagRow().put(0, false);

  ms.history().addRow(layout.history.size());
  for (std::size_t i = 0; i < layout.history.size(); ++i) {
    auto& h = cols.history();
    h.time().put(i, layout.start_time_mjd_s);
    h.observationId().put(i, 0);
    h.message().put(i, layout.history[i]);
    h.priority().put(i, "INFO");
    h.origin().put(i, "apertura");
    h.objectId().put(i, 0);
    h.application().put(i, "apertura");
    h.cliCommand().put(i, cc::Vector<cc::String>(1, ""));
    h.appParams().put(i, cc::Vector<cc::String>(1, ""));
  }
}

// Truncates every file of the table directory `dir` (open files included: truncation frees
// their blocks, unlinking would not).
void releaseSpace(const std::string& dir) {
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    std::error_code ignored;
    if (it->is_regular_file(ignored))
      std::filesystem::resize_file(it->path(), 0, ignored);
  }
}

}  // namespace

struct MeasurementSetWriter::Impl {
  std::string path;
  MsLayout layout;
  bool fixed_shape = true;
  std::optional<cc::MeasurementSet> ms;
  std::optional<cc::MSColumns> cols;
  std::uint64_t rows = 0;
};

MeasurementSetWriter::MeasurementSetWriter(const std::string& path, const MsLayout& layout)
    : impl_(std::make_unique<Impl>()) {
  if (layout.antennas.empty() || layout.fields.empty() || layout.spectral_windows.empty()) {
    throw InputError(path,
                     "a Measurement Set needs at least one antenna, field and spectral window");
  }
  impl_->path = path;
  impl_->layout = layout;
  impl_->fixed_shape = uniformChannels(layout);
  requireFreeFileDescriptors(kMsCreationFiles, path, "creating a Measurement Set");
  const auto lock = lockCasacore();
  try {
    impl_->ms.emplace(createTable(path, layout, impl_->fixed_shape));
    impl_->cols.emplace(*impl_->ms);
    fillAntennas(*impl_->ms, *impl_->cols, layout);
    fillFeeds(*impl_->ms, *impl_->cols, layout);
    fillFields(*impl_->ms, *impl_->cols, layout);
    fillSpectralSetup(*impl_->ms, *impl_->cols, layout);
    fillObservation(*impl_->ms, *impl_->cols, layout);
  } catch (const cc::AipsError& e) {
    // Drop the half-built table while still holding the lock (members die after it is released).
    impl_->cols.reset();
    impl_->ms.reset();
    throw InputError(path,
                     std::string("casacore could not create the Measurement Set: ") + e.what());
  }
}

MeasurementSetWriter::~MeasurementSetWriter() {
  // Destroying the table flushes it: a casacore call like any other.
  const auto lock = lockCasacore();
  impl_.reset();
}

std::uint64_t MeasurementSetWriter::rowsWritten() const {
  return impl_->rows;
}

void MeasurementSetWriter::close() {
  const auto lock = lockCasacore();
  impl_->cols.reset();
  if (impl_->ms) {
    impl_->ms->flush();
    impl_->ms.reset();
  }
}

void MeasurementSetWriter::write(const MsRowBlock& b) {
  if (!impl_->ms)
    throw InputError(impl_->path, "write after close");
  const std::size_t n = b.rows();
  if (n == 0)
    return;
  const auto& layout = impl_->layout;
  if (b.data_desc_id < 0 || b.data_desc_id >= static_cast<int>(layout.spectral_windows.size())) {
    throw InputError(impl_->path, "row block has data description " +
                                      std::to_string(b.data_desc_id) + " outside the table");
  }
  const std::size_t nchan = layout.spectral_windows[static_cast<std::size_t>(b.data_desc_id)]
                                .channel_frequencies_hz.size();
  const std::size_t cells = n * nchan * kNumCorrelations;
  if (b.antenna2.size() != n || b.time_mjd_s.size() != n || b.uvw_m.size() != 3 * n ||
      b.data.size() != cells || b.sigma.size() != n * kNumCorrelations ||
      b.weight.size() != n * kNumCorrelations || (!b.flag.empty() && b.flag.size() != cells)) {
    throw InputError(impl_->path, "row block arrays do not match its row and channel counts");
  }
  auto& ms = *impl_->ms;
  auto& c = *impl_->cols;
  const auto lock = lockCasacore();
  const cc::rownr_t start = ms.nrow();
  try {
    ms.addRow(n);
    const cc::Slicer rows(cc::IPosition(1, start), cc::IPosition(1, n));
    const cc::IPosition nvec(1, n);
    auto put_int = [&](cc::ScalarColumn<int>& col, int value) {
      col.putColumnRange(rows, cc::Vector<int>(nvec, value));
    };
    c.antenna1().putColumnRange(
        rows, cc::Vector<int>(nvec, const_cast<int*>(b.antenna1.data()), cc::SHARE));
    c.antenna2().putColumnRange(
        rows, cc::Vector<int>(nvec, const_cast<int*>(b.antenna2.data()), cc::SHARE));
    const cc::Vector<double> time(nvec, const_cast<double*>(b.time_mjd_s.data()), cc::SHARE);
    c.time().putColumnRange(rows, time);
    c.timeCentroid().putColumnRange(rows, time);
    c.interval().putColumnRange(rows, cc::Vector<double>(nvec, b.interval_s));
    c.exposure().putColumnRange(rows, cc::Vector<double>(nvec, b.interval_s));
    put_int(c.arrayId(), 0);
    put_int(c.dataDescId(), b.data_desc_id);
    put_int(c.feed1(), 0);
    put_int(c.feed2(), 0);
    put_int(c.fieldId(), b.field_id);
    put_int(c.observationId(), 0);
    put_int(c.processorId(), 0);
    put_int(c.scanNumber(), b.scan_number);
    put_int(c.stateId(), -1);
    c.flagRow().putColumnRange(rows, cc::Vector<bool>(nvec, false));
    c.uvw().putColumnRange(rows, cc::Array<double>(cc::IPosition(2, 3, n),
                                                   const_cast<double*>(b.uvw_m.data()), cc::SHARE));
    const cc::IPosition per_row(2, kNumCorrelations, n);
    c.sigma().putColumnRange(
        rows, cc::Array<float>(per_row, const_cast<float*>(b.sigma.data()), cc::SHARE));
    c.weight().putColumnRange(
        rows, cc::Array<float>(per_row, const_cast<float*>(b.weight.data()), cc::SHARE));
    const cc::IPosition cell_shape(2, kNumCorrelations, nchan);
    if (!impl_->fixed_shape) {
      for (cc::rownr_t r = start; r < start + n; ++r) {
        c.data().setShape(r, cell_shape);
        c.flag().setShape(r, cell_shape);
      }
    }
    const cc::IPosition block_shape(3, kNumCorrelations, nchan, n);
    static_assert(sizeof(cc::Complex) == sizeof(std::complex<float>), "layout of complex<float>");
    c.data().putColumnRange(
        rows, cc::Array<cc::Complex>(
                  block_shape,
                  reinterpret_cast<cc::Complex*>(const_cast<std::complex<float>*>(b.data.data())),
                  cc::SHARE));
    cc::Array<bool> flags(block_shape, false);
    if (!b.flag.empty())
      std::copy(b.flag.begin(), b.flag.end(), flags.data());
    c.flag().putColumnRange(rows, flags);
  } catch (const cc::AipsError& e) {
    const std::string full = noSpaceHint(impl_->path);
    if (!full.empty()) {
      // The table's destructor flushes again, and casacore aborts on a write error there: give
      // the half-written table's space back first (the caller removes it anyway).
      releaseSpace(impl_->path);
      throw ResourceError(impl_->path, full + " while writing the Measurement Set");
    }
    throw InputError(impl_->path, std::string("casacore could not write rows: ") + e.what());
  }
  impl_->rows += n;
}

}  // namespace apertura
