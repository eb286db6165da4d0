#!/bin/sh
# run_mpi.sh NP PROGRAM [ARGS...]: runs PROGRAM on NP MPI ranks. Exit 77 (CTest: skipped) when
# no launcher is installed. MPIEXEC overrides the launcher (default mpirun).
np=$1
shift
launcher=${MPIEXEC:-mpirun}
if ! command -v "$launcher" > /dev/null 2>&1; then
  echo "SKIPPED: $launcher not found (install openmpi-bin)"
  exit 77
fi
if "$launcher" --version 2>&1 | grep -q "Open MPI"; then
  # Open MPI refuses root without --allow-run-as-root and more ranks than cores without
  # --oversubscribe (CI containers have both); cross-memory attach is often forbidden there.
  export OMPI_MCA_btl_vader_single_copy_mechanism=none
  exec "$launcher" --allow-run-as-root --oversubscribe --tag-output -np "$np" "$@"
fi
exec "$launcher" -np "$np" "$@"
