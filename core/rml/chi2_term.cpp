#include "core/rml/chi2_term.h"

#include <chrono>
#include <stdexcept>

namespace apertura::rml {

namespace {
double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

Chi2Term::Chi2Term(std::shared_ptr<MeasurementOperator> op, std::vector<VisibilityBlock> data,
                   Chi2Options options)
    : op_(std::move(op)), data_(std::move(data)), sum_(std::move(options.sum)) {
  if (!op_)
    throw std::invalid_argument("Chi2Term: null measurement operator");
  if (data_.size() != op_->numBlocks())
    throw std::invalid_argument("Chi2Term: number of visibility blocks differs from the operator");
  for (std::size_t b = 0; b < data_.size(); ++b) {
    if (data_[b].vis.size() != op_->blockSize(b) || data_[b].weights.size() != op_->blockSize(b))
      throw std::invalid_argument("Chi2Term: block " + std::to_string(b) +
                                  " has a size different from the operator's");
    for (double w : data_[b].weights) {
      if (w < 0.0)
        throw std::invalid_argument("Chi2Term: negative weight");
      if (w > 0.0)
        ++num_valid_;
      sum_weights_ += w;
    }
  }
  adjoint_.resize(op_->numPixels());
  if (options.totals) {
    num_valid_ = options.totals->valid_samples;
    sum_weights_ = options.totals->sum_weights;
  }
}

Chi2Term::~Chi2Term() = default;

double Chi2Term::evaluate(const double* image, double* gradient, double scale) {
  auto start = std::chrono::steady_clock::now();
  op_->forward(image, model_);
  times_.push_back({"degrid", secondsSince(start)});
  start = std::chrono::steady_clock::now();
  double chi2 = 0.0;
  for (std::size_t b = 0; b < data_.size(); ++b) {
    auto& m = model_[b];
    const auto& d = data_[b];
    for (std::size_t k = 0; k < m.size(); ++k) {
      const Complex r = m[k] - d.vis[k];
      chi2 += d.weights[k] * std::norm(r);
      m[k] = d.weights[k] * r;  // becomes W (A I - V) for the adjoint pass
    }
  }
  times_.push_back({"residual", secondsSince(start)});
  if (gradient != nullptr) {
    start = std::chrono::steady_clock::now();
    op_->adjoint(model_, adjoint_.data());
    times_.push_back({"grid", secondsSince(start)});
  }
  if (sum_) {
    start = std::chrono::steady_clock::now();
    sum_(&chi2, 1);
    if (gradient != nullptr)
      sum_(adjoint_.data(), adjoint_.size());
    times_.push_back({"reduce", secondsSince(start)});
  }
  if (gradient != nullptr) {
    for (std::size_t p = 0; p < adjoint_.size(); ++p)
      gradient[p] += 2.0 * scale * adjoint_[p];
  }
  return chi2;
}

std::vector<StageTime> Chi2Term::takeStageTimes() {
  std::vector<StageTime> out;
  out.swap(times_);
  return out;
}

void Chi2Term::residuals(const double* image, std::vector<std::vector<Complex>>& vis) {
  op_->forward(image, vis);
  for (std::size_t b = 0; b < data_.size(); ++b) {
    for (std::size_t k = 0; k < vis[b].size(); ++k)
      vis[b][k] = data_[b].vis[k] - vis[b][k];
  }
}

void Chi2Term::forEachResidual(const double* image, const ResidualVisitor& visit) {
  std::vector<std::vector<Complex>> model;
  op_->forward(image, model);
  Residual residual;
  for (std::size_t b = 0; b < model.size(); ++b) {
    residual.resize(model[b].size());
    for (std::size_t k = 0; k < residual.size(); ++k)
      residual[k] = data_[b].vis[k] - model[b][k];
    visit(b, residual, model[b]);
  }
}

void Chi2Term::dirtyImage(const std::vector<std::vector<Complex>>& vis, double* image) {
  std::vector<std::vector<Complex>> weighted(vis.size());
  for (std::size_t b = 0; b < vis.size(); ++b) {
    weighted[b].resize(vis[b].size());
    for (std::size_t k = 0; k < vis[b].size(); ++k)
      weighted[b][k] = data_[b].weights[k] * vis[b][k];
  }
  op_->adjoint(weighted, image);
  const double norm = sum_weights_ > 0.0 ? 1.0 / sum_weights_ : 0.0;
  for (std::size_t p = 0; p < op_->numPixels(); ++p)
    image[p] *= norm;
}

double TotalFluxTerm::evaluate(const double* image, double* gradient, double scale) {
  double sum = 0.0;
  for (std::size_t p = 0; p < numPixels(); ++p)
    sum += maskAt(p) * image[p];
  const double excess = sum - flux_;
  if (gradient != nullptr) {
    for (std::size_t p = 0; p < numPixels(); ++p)
      gradient[p] += scale * 2.0 * excess * maskAt(p);
  }
  return excess * excess;
}

// x = v - 2 t (m.x - F) m, and m.x - F = (m.v - F) / (1 + 2 t |m|^2).
void TotalFluxTerm::prox(const double* v, double step, double* out) {
  double sum = 0.0;
  double norm2 = 0.0;
  for (std::size_t p = 0; p < numPixels(); ++p) {
    sum += maskAt(p) * v[p];
    norm2 += maskAt(p) * maskAt(p);
  }
  const double excess = (sum - flux_) / (1.0 + 2.0 * step * norm2);
  for (std::size_t p = 0; p < numPixels(); ++p)
    out[p] = v[p] - 2.0 * step * excess * maskAt(p);
}

}  // namespace apertura::rml
