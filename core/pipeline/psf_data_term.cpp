#include "core/pipeline/psf_data_term.h"

#include <cmath>
#include <complex>

namespace apertura::pipeline {
namespace {

double totalSeconds(const std::vector<rml::StageTime>& times) {
  double s = 0.0;
  for (const auto& t : times)
    s += t.seconds;
  return s;
}

}  // namespace

template <typename T>
std::vector<double> doubledPsf(const imaging::ImageGeometry& g,
                               const imaging::OperatorSettings& settings,
                               const imaging::BackendRequest& backend, ChunkSequence& chunks,
                               const SumOverProcesses& sum,
                               const std::function<double(double)>& factor) {
  const imaging::ImageGeometry g2{2 * g.nx, 2 * g.ny, g.cell_l, g.cell_m};
  imaging::OperatorSettings s = settings;
  s.w_stacking = false;
  auto op = imaging::makeOperator<T>(g2, s, backend);
  std::vector<std::complex<T>> ones;
  op->beginGrid();
  chunks.forEach([&](const VisibilityChunk& c, std::size_t) {
    const imaging::UvwBlock block = imaging::UvwBlock::of(c);
    ones.assign(block.numSamples(), std::complex<T>(1));
    if (factor) {
      const std::size_t channels = c.num_channels();
      for (std::size_t k = 0; k < ones.size(); ++k)
        ones[k] = std::complex<T>(T(factor(c.frequencies_hz[k % channels])));
    }
    auto plan = op->planBlock(block);
    op->gridBlock(*plan, ones.data(), c.weights.data());
  });
  std::vector<std::complex<double>> image(g2.numPixels());
  op->endGridDouble(image.data());
  std::vector<double> psf(image.size());
  for (std::size_t p = 0; p < psf.size(); ++p)
    psf[p] = image[p].real();
  if (sum)
    sum(psf.data(), psf.size());
  return psf;
}

template <typename T>
std::shared_ptr<rml::PsfChi2Term> psfTerm(const std::shared_ptr<rml::DataTerm>& exact,
                                          const imaging::ImageGeometry& g,
                                          const imaging::OperatorSettings& settings,
                                          const imaging::BackendRequest& backend,
                                          ChunkSequence& chunks, const SumOverProcesses& sum,
                                          PsfUse use, PsfCost* cost,
                                          const rml::SpectrumBand* band) {
  if (use == PsfUse::Never)
    return nullptr;
  std::shared_ptr<rml::PsfChi2Term> term;
  if (band != nullptr) {
    const rml::SpectrumBand b = *band;
    const auto psf = [&](double low_power, double high_power) {
      return doubledPsf<T>(g, settings, backend, chunks, sum,
                           [b, low_power, high_power](double hz) {
                             const double t = b.position(hz);
                             return std::pow(1.0 - t, low_power) * std::pow(t, high_power);
                           });
    };
    term = std::make_shared<rml::PsfChi2Term>(
        exact, g.nx, g.ny, std::vector<std::vector<double>>{psf(2, 0), psf(1, 1), psf(0, 2)},
        settings.threads);
  } else {
    term = std::make_shared<rml::PsfChi2Term>(
        exact, g.nx, g.ny, doubledPsf<T>(g, settings, backend, chunks, sum), settings.threads);
  }
  // The anchor was one pass of the exact term (its stage times); then one PSF-mode evaluation.
  const double exact_seconds = totalSeconds(term->takeStageTimes());
  std::vector<double> image(exact->numPixels(), 0.0), gradient(image.size(), 0.0);
  term->evaluate(image.data(), gradient.data(), 1.0);
  const double psf_seconds = totalSeconds(term->takeStageTimes());
  // In a distributed run every rank must decide alike: the times are summed over ranks.
  double times[2] = {exact_seconds, psf_seconds};
  if (sum)
    sum(times, 2);
  if (cost)
    *cost = {times[0], times[1]};
  return use == PsfUse::Always || times[1] < times[0] ? term : nullptr;
}

template std::vector<double> doubledPsf<float>(const imaging::ImageGeometry&,
                                               const imaging::OperatorSettings&,
                                               const imaging::BackendRequest&, ChunkSequence&,
                                               const SumOverProcesses&,
                                               const std::function<double(double)>&);
template std::vector<double> doubledPsf<double>(const imaging::ImageGeometry&,
                                                const imaging::OperatorSettings&,
                                                const imaging::BackendRequest&, ChunkSequence&,
                                                const SumOverProcesses&,
                                                const std::function<double(double)>&);
template std::shared_ptr<rml::PsfChi2Term> psfTerm<float>(
    const std::shared_ptr<rml::DataTerm>&, const imaging::ImageGeometry&,
    const imaging::OperatorSettings&, const imaging::BackendRequest&, ChunkSequence&,
    const SumOverProcesses&, PsfUse, PsfCost*, const rml::SpectrumBand*);
template std::shared_ptr<rml::PsfChi2Term> psfTerm<double>(
    const std::shared_ptr<rml::DataTerm>&, const imaging::ImageGeometry&,
    const imaging::OperatorSettings&, const imaging::BackendRequest&, ChunkSequence&,
    const SumOverProcesses&, PsfUse, PsfCost*, const rml::SpectrumBand*);

}  // namespace apertura::pipeline
