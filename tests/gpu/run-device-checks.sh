#!/usr/bin/env bash
# Runs the CUDA backend's checks on a machine with an NVIDIA GPU and writes logs and figures to
# OUTDIR (docs/gpu.md). Two ways:
#   run-device-checks.sh OUTDIR           builds here: configures with CUDA for this machine's GPU
#                                         only (CMAKE_CUDA_ARCHITECTURES=native), builds the gpu
#                                         tests, the benchmark and apertura-cli, runs `ctest -L gpu`
#                                         and the benchmark. Needs the Debian packages of
#                                         packaging/install-deps.sh and nvcc (PATH or
#                                         /usr/local/cuda/bin).
#   run-device-checks.sh OUTDIR BUNDLE    runs the programs of a bundle made elsewhere by
#                                         tests/gpu/make-device-bundle.sh (for a machine with the
#                                         CUDA 13 runtime and cuFFT but without the build
#                                         dependencies); APERTURA_GPU_BUNDLE=BUNDLE does the same.
# Everything is bounded by timeouts so the script ends within 8 minutes (the build takes about 2
# on 16 cores, the checks under 1, the benchmark 1-3). Exit status: 0 when every check passed.
set -uo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 OUTDIR [BUNDLE]" >&2
  exit 2
fi
mkdir -p "$1" || exit 2
out=$(cd "$1" && pwd)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bundle=${2:-${APERTURA_GPU_BUNDLE:-}}
start=$SECONDS
status=0

note() { echo "[$((SECONDS - start)) s] $*" | tee -a "$out/summary.txt"; }

note "apertura device checks: $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo '?')"
(nvidia-smi || echo "nvidia-smi failed") >"$out/nvidia-smi.txt" 2>&1
# With a GPU present a skipped check is a failure (the programs did not see the device).
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
note "GPU: $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null |
  head -1 || true)"

# The CUDA runtime and cuFFT: the toolkit's, else a pip wheel's (nvidia-cufft, nvidia-cuda-runtime).
cuda_libs=""
for d in /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/targets/x86_64-linux/lib; do
  [ -d "$d" ] && cuda_libs="$cuda_libs:$d"
done
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}$cuda_libs"

run_check() {  # NAME SECONDS COMMAND...: 0 pass, 77 skipped, else fail
  local name=$1 limit=$2
  shift 2
  timeout "$limit" "$@" >"$out/$name.log" 2>&1
  local rc=$?
  case $rc in
    0) note "PASS $name" ;;
    77)
      note "SKIPPED $name: $(grep -m1 SKIPPED "$out/$name.log")"
      [ "$gpus" -eq 0 ] || { note "  ... but nvidia-smi lists $gpus GPU(s)"; status=1; }
      ;;
    124) note "FAIL $name: timed out after $limit s"; status=1 ;;
    *) note "FAIL $name (exit $rc): $(grep -m3 FAIL "$out/$name.log" | tr '\n' ' ')"; status=1 ;;
  esac
}

if [ -n "$bundle" ]; then
  bundle=$(cd "$bundle" && pwd) || exit 2
  bin=$bundle/bin
  export LD_LIBRARY_PATH="$bundle/lib:$LD_LIBRARY_PATH"
  module=$bundle/lib/apertura/libapertura_cuda.so
  if ldd "$module" | grep -q "not found"; then
    # Look for the missing CUDA libraries where Python wheels keep them.
    for lib in libcudart.so.13 libcufft.so.12; do
      found=$(find /usr /opt -name "$lib" 2>/dev/null | head -1)
      [ -n "$found" ] && export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$(dirname "$found")"
    done
  fi
  (ldd "$bin/cuda_operator_checks" && ldd "$module") >"$out/ldd.txt" 2>&1
  if grep -q "not found" "$out/ldd.txt"; then
    note "FAIL: libraries not found: $(grep 'not found' "$out/ldd.txt" | tr '\n' ' ')"
    exit 1
  fi
  note "bundle $bundle ($(cat "$bundle/BUILD_INFO" 2>/dev/null | head -1))"
  run_check test_cuda_smoke 60 "$bin/test_cuda_smoke"
  for check in compare adjoint streaming bytes threads memory; do
    run_check "test_cuda_operator_$check" 300 "$bin/cuda_operator_checks" "$check"
  done
  for check in residual accumulation chi2term lbfgs cg fista regularizers; do
    run_check "test_cuda_chi2_$check" 300 "$bin/cuda_chi2_checks" "$check"
  done
  for check in wstack wstack_chi2; do
    run_check "test_cuda_operator_$check" 300 "$bin/cuda_wstack_checks" "$check"
  done
  run_check test_cuda_tiled_gridding 300 "$bin/cuda_tiled_checks" gridding
  for check in operations penalties duals memory; do
    run_check "test_cuda_space_$check" 300 "$bin/cuda_space_checks" "$check"
  done
  for check in lbfgs fista; do
    run_check "test_cuda_cube_$check" 300 "$bin/cuda_cube_checks" "$check"
  done
  checks_bin=$bin
  bench=$bin/bench_gpu_gridding
  bench_kernels=$bin/bench_gpu_kernels
  bench_rml=$bin/bench_rml_iteration
else
  build=$root/build-gpu
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  # Overridable to try the script on a machine without a GPU (native needs one).
  arch=${APERTURA_CUDA_ARCH:-native}
  build_type=${APERTURA_BUILD_TYPE:-Release}
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  note "configure ($build, $build_type, CUDA architectures $arch, nvcc $nvcc)"
  if ! timeout 120 cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="$build_type" \
      -DAPERTURA_CUDA=ON -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES="$arch" \
      -DAPERTURA_BUILD_GUI=OFF "${launcher[@]}" >"$out/configure.log" 2>&1; then
    note "FAIL: configure (see configure.log; packaging/install-deps.sh installs what it needs)"
    exit 1
  fi
  note "build"
  if ! timeout 300 cmake --build "$build" -j "$(nproc)" --target test_cuda_smoke \
      cuda_operator_checks cuda_chi2_checks cuda_wstack_checks cuda_tiled_checks cuda_space_checks \
      cuda_cube_checks bench_gpu_gridding bench_gpu_kernels bench_rml_iteration apertura-cli \
      >"$out/build.log" 2>&1; then
    note "FAIL: build (see build.log)"
    exit 1
  fi
  timeout 30 "$build/app/apertura-cli" devices >"$out/devices.txt" 2>&1
  note "apertura-cli devices: $(head -1 "$out/devices.txt")"
  timeout 400 ctest --test-dir "$build" -L gpu --output-on-failure --timeout 300 \
    >"$out/ctest-gpu.log" 2>&1 || status=1
  note "ctest -L gpu: $(grep -E 'tests passed|tests failed' "$out/ctest-gpu.log" | tail -1)"
  if [ "$gpus" -gt 0 ] && grep -q '(Skipped)' "$out/ctest-gpu.log"; then
    note "  ... tests skipped although nvidia-smi lists $gpus GPU(s)"
    status=1
  fi
  checks_bin=$build/tests/gpu
  bench=$build/tests/benchmarks/bench_gpu_gridding
  bench_kernels=$build/tests/benchmarks/bench_gpu_kernels
  bench_rml=$build/tests/benchmarks/bench_rml_iteration
fi

# APERTURA_SANITIZE=1: some checks again under compute-sanitizer (memcheck: out-of-bounds and
# misaligned accesses, errors of CUDA calls; racecheck: shared-memory races in the tiled gridder).
if [ "${APERTURA_SANITIZE:-0}" = 1 ]; then
  sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  if [ -x "$sanitizer" ]; then
    sanitize() {  # NAME TOOL PROGRAM ARGS...
      local name=$1 tool=$2
      shift 2
      timeout 100 "$sanitizer" --tool "$tool" --error-exitcode 99 "$@" >"$out/sanitize_$name.log" 2>&1
      local rc=$?
      case $rc in
        0) note "PASS sanitize $name ($tool): $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitize_$name.log")" ;;
        124) note "sanitize $name ($tool): timed out (not counted)" ;;
        *) note "FAIL sanitize $name ($tool, exit $rc): $(grep -m2 -E '=====.*(Invalid|Error|hazard)' "$out/sanitize_$name.log" | tr '\n' ' ')"; status=1 ;;
      esac
    }
    sanitize tiled_memcheck memcheck "$checks_bin/cuda_tiled_checks" gridding
    sanitize tiled_racecheck racecheck "$checks_bin/cuda_tiled_checks" gridding
    sanitize chi2_memcheck memcheck "$checks_bin/cuda_chi2_checks" residual
    sanitize accumulation_memcheck memcheck "$checks_bin/cuda_chi2_checks" accumulation
    sanitize adjoint_memcheck memcheck "$checks_bin/cuda_operator_checks" adjoint
    sanitize wstack_memcheck memcheck "$checks_bin/cuda_wstack_checks" wstack
    sanitize wstack_term_memcheck memcheck "$checks_bin/cuda_wstack_checks" wstack_term
    sanitize space_memcheck memcheck "$checks_bin/cuda_space_checks" operations
    sanitize resident_lbfgs_memcheck memcheck "$checks_bin/cuda_chi2_checks" lbfgs
    sanitize resident_fista_memcheck memcheck "$checks_bin/cuda_chi2_checks" fista
  else
    note "APERTURA_SANITIZE: compute-sanitizer not found"
  fi
fi

# The figures: gridding at 1e7 and 1e8 visibilities, 2048^2 and 4096^2 (CPU at 1e7 only), with
# w-stacking at 2048^2 / 1e7 (|w| <= 5000 wavelengths, about 57 planes), then
# the time per RML iteration (chi2 on the device + TSV + L1, L-BFGS) at 2048^2 / 1e7 (also with
# w-stacking, |w| <= 5000 wavelengths) and 4096^2 / 1e8 on CUDA and at 2048^2 / 1e7 on the CPU;
# each bounded by what time is left.
bench_step() {  # FILE LIMIT COMMAND...
  local file=$1 limit=$2
  shift 2
  if [ "$limit" -lt 20 ]; then
    note "no time left for $file"
    return
  fi
  note "benchmark $file (limit $limit s)"
  timeout "$limit" "$@" >"$out/$file" 2>&1
  local rc=$?
  case $rc in
    0) ;;
    77) note "$file skipped (no device)" ;;
    124) note "$file timed out" ;;
    *) note "$file exit $rc"; status=1 ;;
  esac
  tee -a "$out/summary.txt" <"$out/$file"
}
# APERTURA_CHECK_SECONDS (default 470) shortens the whole run for a short device lease.
left() { echo $((${APERTURA_CHECK_SECONDS:-470} - (SECONDS - start) - $1)); }
# APERTURA_RML_BENCH_ONLY=1 leaves out the gridding benchmarks (for a short lease, when only the
# RML iteration changed).
if [ "${APERTURA_RML_BENCH_ONLY:-0}" != 1 ]; then
  bench_step bench_gpu_kernels.txt "$(left 200)" "$bench_kernels"
  bench_step bench_gpu_gridding.txt "$(left 150)" "$bench"
  bench_step bench_gpu_wstack.txt "$(left 120)" "$bench" --sizes 2048 --vis 1e7 --wstack 5000
fi
bench_step bench_rml_cuda_2048_1e7.txt "$(left 100)" "$bench_rml" 2048 1e7 12 float double cuda
bench_step bench_rml_cuda_wstack_2048_1e7.txt "$(left 70)" "$bench_rml" 2048 1e7 6 float double \
  cuda 5000
bench_step bench_rml_cuda_4096_1e8.txt "$(left 40)" "$bench_rml" 4096 1e8 12 float double cuda
bench_step bench_rml_cpu_2048_1e7.txt "$(left 0)" "$bench_rml" 2048 1e7 3 float double cpu
note "done, status $status"
exit $status
