#!/usr/bin/env bash
# Builds the GPU checks and benchmark on this (Debian 12, nvcc, no GPU needed) machine for Hopper
# (sm_90: H100, H200; override with APERTURA_BUNDLE_ARCH) and collects them with the shared
# libraries they need that a CUDA-only machine lacks (FFTW, oneTBB; not the CUDA runtime or cuFFT,
# which come from the GPU machine's toolkit) into BUNDLE, for
#   tests/gpu/run-device-checks.sh OUTDIR BUNDLE
# on a GPU machine without the build dependencies (docs/gpu.md). Usage: make-device-bundle.sh BUNDLE
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 BUNDLE" >&2
  exit 2
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$root/build-gpu-bundle
arch=${APERTURA_BUNDLE_ARCH:-90}
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
# Release (the default build type) and -Werror as the developer builds, so ccache shares their objects.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DAPERTURA_WERROR=ON -DAPERTURA_CUDA=ON \
  -DCMAKE_CUDA_ARCHITECTURES="$arch" -DAPERTURA_BUILD_GUI=OFF "${launcher[@]}" >/dev/null
programs=(tests/gpu/test_cuda_smoke tests/gpu/cuda_operator_checks tests/gpu/cuda_chi2_checks
          tests/gpu/cuda_wstack_checks tests/gpu/cuda_tiled_checks tests/gpu/cuda_space_checks
          tests/gpu/cuda_cube_checks tests/benchmarks/bench_gpu_gridding
          tests/benchmarks/bench_gpu_kernels tests/benchmarks/bench_rml_iteration)
cmake --build "$build" -j "$(nproc)" --target test_cuda_smoke cuda_operator_checks \
  cuda_chi2_checks cuda_wstack_checks cuda_tiled_checks cuda_space_checks cuda_cube_checks \
  bench_gpu_gridding bench_gpu_kernels bench_rml_iteration \
  apertura_cuda

mkdir -p "$1"
bundle=$(cd "$1" && pwd)
rm -rf "$bundle/bin" "$bundle/lib"
mkdir -p "$bundle/bin" "$bundle/lib/apertura"
for p in "${programs[@]}"; do
  cp "$build/$p" "$bundle/bin/"
  strip --strip-debug "$bundle/bin/$(basename "$p")"
done
# The CUDA backend module, where the programs look for it (../lib/apertura beside bin/).
cp "$build/lib/apertura/libapertura_cuda.so" "$bundle/lib/apertura/"
strip --strip-debug "$bundle/lib/apertura/libapertura_cuda.so"
# Every library the programs load except the C runtime and the CUDA libraries.
for p in "$bundle"/bin/* "$bundle/lib/apertura/libapertura_cuda.so"; do
  ldd "$p" | awk '/=> \// { print $3 }'
done | sort -u | while read -r lib; do
  case $(basename "$lib") in
    libc.so* | libm.so* | libdl.so* | libpthread.so* | librt.so* | libgcc_s.so* | libstdc++.so* | \
      ld-linux* | libcuda.so* | libcudart.so* | libcufft.so*) ;;
    *) cp -L "$lib" "$bundle/lib/" ;;
  esac
done
echo "sm_$arch $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo '?') $(date -u +%F)" \
  >"$bundle/BUILD_INFO"
du -sh "$bundle"
ls -R "$bundle"
