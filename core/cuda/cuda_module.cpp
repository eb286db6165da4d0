// The C-named entry points of libapertura_cuda.so (see cuda_module.h).
#include "core/cuda/cuda_module.h"

#include "core/cuda/cuda_devices.h"

extern "C" {

int apertura_cuda_abi() {
  return apertura::cuda::kCudaModuleAbi;
}

void apertura_cuda_query_devices(apertura::imaging::GpuInventory& out) {
  out = apertura::cuda::queryDevices();
}

apertura::imaging::ImagingOperator<float>* apertura_cuda_make_operator_float(
    const apertura::cuda::CudaOperatorConfig& config) {
  return apertura::cuda::makeCudaOperator<float>(config).release();
}

apertura::imaging::ImagingOperator<double>* apertura_cuda_make_operator_double(
    const apertura::cuda::CudaOperatorConfig& config) {
  return apertura::cuda::makeCudaOperator<double>(config).release();
}
}
