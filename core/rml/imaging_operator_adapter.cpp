#include "core/rml/imaging_operator_adapter.h"

namespace apertura::rml {

template <typename T>
ImagingOperatorAdapter<T>::ImagingOperatorAdapter(imaging::ImagingOperator<T>& op,
                                                  const std::vector<imaging::UvwBlock>& blocks)
    : op_(op) {
  for (const auto& b : blocks)
    sizes_.push_back(b.numSamples());
  image_.resize(op_.geometry().numPixels());
  vis_.resize(sizes_.size());
  for (std::size_t b = 0; b < sizes_.size(); ++b)
    vis_[b].resize(sizes_[b]);
}

template <typename T>
void ImagingOperatorAdapter<T>::forward(const double* image,
                                        std::vector<std::vector<Complex>>& vis) {
  for (std::size_t p = 0; p < image_.size(); ++p)
    image_[p] = std::complex<T>(T(image[p]), T(0));
  std::vector<std::complex<T>*> out;
  for (auto& v : vis_)
    out.push_back(v.data());
  op_.degrid(image_.data(), out);
  vis.resize(vis_.size());
  for (std::size_t b = 0; b < vis_.size(); ++b)
    vis[b].assign(vis_[b].begin(), vis_[b].end());
}

template <typename T>
void ImagingOperatorAdapter<T>::adjoint(const std::vector<std::vector<Complex>>& vis,
                                        double* image) {
  std::vector<const std::complex<T>*> in;
  std::vector<const float*> weights(vis.size(), nullptr);
  for (std::size_t b = 0; b < vis.size(); ++b) {
    vis_[b].assign(vis[b].begin(), vis[b].end());
    in.push_back(vis_[b].data());
  }
  // In double: a distributed run adds the processes' images after this.
  adjoint_.resize(image_.size());
  op_.gridDouble(in, weights, adjoint_.data());
  for (std::size_t p = 0; p < adjoint_.size(); ++p)
    image[p] = adjoint_[p].real();
}

template class ImagingOperatorAdapter<float>;
template class ImagingOperatorAdapter<double>;

}  // namespace apertura::rml
