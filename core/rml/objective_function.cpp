#include "core/rml/objective_function.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "core/rml/detail/parallel_sum.h"

namespace apertura::rml {

namespace {

void addTime(std::vector<StageTime>& times, const std::string& stage, double seconds) {
  for (auto& t : times) {
    if (t.stage == stage) {
      t.seconds += seconds;
      return;
    }
  }
  times.push_back({stage, seconds});
}

}  // namespace

struct ObjectiveFunction::Entry {
  std::shared_ptr<ObjectiveTerm> term;
  TermOptions options;
  std::unique_ptr<ProxView> prox_view;
};

class ObjectiveFunction::SmoothView final : public DifferentiableFunction {
 public:
  explicit SmoothView(ObjectiveFunction& owner) : owner_(owner) {}
  std::size_t dimension() const override { return owner_.dimension(); }
  double evaluate(const double* x, double* gradient) override {
    return owner_.evaluateSelected(x, gradient, false);
  }
  std::vector<TermValue> lastTermValues() const override { return owner_.lastTermValues(); }
  std::vector<StageTime> takeStageTimes() override { return owner_.takeStageTimes(); }
  compute::VectorSpace* residentSpace() override { return owner_.residentSpaceSelected(false); }
  double evaluateIn(const compute::SpaceVector& x, compute::SpaceVector* gradient) override {
    return owner_.evaluateInSelected(x, gradient, false);
  }

 private:
  ObjectiveFunction& owner_;
};

// lambda * term applied to one parameter slice; other slices pass through the prox unchanged.
class ObjectiveFunction::ProxView final : public ProximableFunction {
 public:
  ProxView(const Entry& entry, std::size_t num_pixels, std::size_t dimension)
      : entry_(entry), num_pixels_(num_pixels), dimension_(dimension) {}
  std::string name() const override { return entry_.term->name(); }
  double value(const double* x) override {
    const double* slice = x + std::size_t(entry_.options.parameter) * num_pixels_;
    return entry_.options.lambda * entry_.term->proxValue(slice);
  }
  bool isSeparable() const override { return entry_.term->isSeparable(); }
  void prox(const double* v, double step, double* out) override {
    std::copy(v, v + dimension_, out);
    const std::size_t offset = std::size_t(entry_.options.parameter) * num_pixels_;
    entry_.term->prox(v + offset, step * entry_.options.lambda, out + offset);
  }
  bool hasNonNegativeProx() const override { return entry_.term->hasNonNegativeProx(); }
  void proxNonNegative(const double* v, double step, double* out) override {
    // The other slices' prox is the identity: over x >= 0, the projection.
    const std::size_t offset = std::size_t(entry_.options.parameter) * num_pixels_;
    const std::size_t end = offset + std::size_t(entry_.options.parameters) * num_pixels_;
    for (std::size_t k = 0; k < dimension_; ++k) {
      if (k < offset || k >= end)
        out[k] = std::max(v[k], 0.0);
    }
    entry_.term->proxNonNegative(v + offset, step * entry_.options.lambda, out + offset);
  }
  // Terms over the whole parameter vector only (a single image, or every plane of a cube): no
  // other slices to pass through.
  bool residentIn(compute::VectorSpace& space) const override {
    return dimension_ == std::size_t(entry_.options.parameters) * num_pixels_ &&
           entry_.term->residentProx(space);
  }
  double valueIn(compute::VectorSpace& space, const compute::SpaceVector& x) override {
    return entry_.options.lambda * entry_.term->proxValueIn(space, x);
  }
  void proxIn(compute::VectorSpace& space, const compute::SpaceVector& v, double step,
              compute::SpaceVector& out) override {
    entry_.term->proxIn(space, v, step * entry_.options.lambda, out);
  }
  void proxNonNegativeIn(compute::VectorSpace& space, const compute::SpaceVector& v, double step,
                         compute::SpaceVector& out) override {
    entry_.term->proxNonNegativeIn(space, v, step * entry_.options.lambda, out);
  }

 private:
  const Entry& entry_;
  std::size_t num_pixels_;
  std::size_t dimension_;
};

ObjectiveFunction::ObjectiveFunction(std::size_t num_pixels, int num_parameters)
    : num_pixels_(num_pixels),
      num_parameters_(num_parameters),
      smooth_(std::make_unique<SmoothView>(*this)) {
  if (num_parameters < 1)
    throw std::invalid_argument("ObjectiveFunction: num_parameters < 1");
}

ObjectiveFunction::~ObjectiveFunction() = default;

void ObjectiveFunction::setLambda(std::size_t index, double lambda) {
  if (index >= entries_.size())
    throw std::out_of_range("ObjectiveFunction::setLambda: no term " + std::to_string(index));
  entries_[index]->options.lambda = lambda;
}

void ObjectiveFunction::add(std::shared_ptr<ObjectiveTerm> term, TermOptions options) {
  if (!term)
    throw std::invalid_argument("ObjectiveFunction::add: null term");
  if (options.parameter < 0 || options.parameters < 1 ||
      options.parameter + options.parameters > num_parameters_)
    throw std::invalid_argument("ObjectiveFunction::add: parameter index out of range");
  if (options.proximal && !term->hasProx())
    throw std::invalid_argument(term->name() + " has no proximal operator");
  auto entry = std::make_unique<Entry>();
  entry->term = std::move(term);
  entry->options = options;
  entry->prox_view = std::make_unique<ProxView>(*entry, num_pixels_, dimension());
  entries_.push_back(std::move(entry));
}

std::size_t ObjectiveFunction::numTerms() const {
  return entries_.size();
}

std::size_t ObjectiveFunction::dimension() const {
  return num_pixels_ * std::size_t(num_parameters_);
}

double ObjectiveFunction::evaluate(const double* x, double* gradient) {
  return evaluateSelected(x, gradient, true);
}

double ObjectiveFunction::evaluateSelected(const double* x, double* gradient,
                                           bool include_proximal) {
  if (gradient != nullptr) {
    detail::parallelFor(dimension(), [gradient](std::size_t begin, std::size_t end) {
      std::fill(gradient + begin, gradient + end, 0.0);
    });
  }
  return sumTerms(include_proximal, [&](const Entry& e) {
    const std::size_t offset = std::size_t(e.options.parameter) * num_pixels_;
    return e.term->evaluate(x + offset, gradient ? gradient + offset : nullptr, e.options.lambda);
  });
}

compute::VectorSpace* ObjectiveFunction::residentSpace() {
  return residentSpaceSelected(true);
}

double ObjectiveFunction::evaluateIn(const compute::SpaceVector& x,
                                     compute::SpaceVector* gradient) {
  return evaluateInSelected(x, gradient, true);
}

compute::VectorSpace* ObjectiveFunction::residentSpaceSelected(bool include_proximal) {
  // Every term must see the whole parameter vector (one image, or every plane of a cube): a
  // slice would need views of the space's vectors.
  for (const auto& e : entries_) {
    if (e->options.proximal && !include_proximal)
      continue;
    if (e->options.parameter != 0 || e->options.parameters != num_parameters_)
      return nullptr;
  }
  compute::VectorSpace* space = nullptr;
  for (const auto& e : entries_) {
    if (e->options.proximal && !include_proximal)
      continue;
    if (compute::VectorSpace* own = e->term->dataSpace()) {
      if (space != nullptr && space != own)
        return nullptr;
      space = own;
    }
  }
  if (space == nullptr)
    return nullptr;
  for (const auto& e : entries_) {
    if (e->options.proximal && !include_proximal)
      continue;
    if (!e->term->residentIn(*space))
      return nullptr;
  }
  return space;
}

double ObjectiveFunction::evaluateInSelected(const compute::SpaceVector& x,
                                             compute::SpaceVector* gradient,
                                             bool include_proximal) {
  compute::VectorSpace* space = residentSpaceSelected(include_proximal);
  if (space == nullptr)
    throw std::logic_error("ObjectiveFunction: not every term can be evaluated in the space");
  if (gradient != nullptr)
    space->fill(0.0, *gradient);
  return sumTerms(include_proximal, [&](const Entry& e) {
    return e.term->evaluateIn(*space, x, gradient, e.options.lambda);
  });
}

template <typename F>
double ObjectiveFunction::sumTerms(bool include_proximal, F evaluate_term) {
  using Clock = std::chrono::steady_clock;
  last_values_.clear();
  double total = 0.0;
  for (const auto& e : entries_) {
    if (e->options.proximal && !include_proximal)
      continue;
    const auto start = Clock::now();
    const double v = e->options.lambda * evaluate_term(*e);
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    double inner = 0.0;
    for (const auto& s : e->term->takeStageTimes()) {
      addTime(stage_times_, s.stage, s.seconds);
      inner += s.seconds;
    }
    addTime(stage_times_, e->term->name(), std::max(0.0, seconds - inner));
    last_values_.push_back({e->term->name(), v});
    total += v;
  }
  return total;
}

std::vector<TermValue> ObjectiveFunction::lastTermValues() const {
  return last_values_;
}

std::vector<StageTime> ObjectiveFunction::takeStageTimes() {
  std::vector<StageTime> out;
  out.swap(stage_times_);
  return out;
}

DifferentiableFunction& ObjectiveFunction::smoothPart() {
  return *smooth_;
}

std::vector<ProximableFunction*> ObjectiveFunction::proximalTerms() {
  std::vector<ProximableFunction*> out;
  for (const auto& e : entries_) {
    if (e->options.proximal)
      out.push_back(e->prox_view.get());
  }
  return out;
}

}  // namespace apertura::rml
