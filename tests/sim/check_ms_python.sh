#!/bin/sh
# Reads a Measurement Set written by `apertura-cli simulate` with python3-casacore (an
# independent reader): row count, DATA shape and values, subtables. Exit 77 (skip) without it.
# Usage: check_ms_python.sh APERTURA_CLI OUTPUT_DIR
set -e
/usr/bin/python3 -c 'import casacore.tables' 2>/dev/null || { echo "SKIPPED: no python3-casacore"; exit 77; }
ms="$2/python_check.ms"
"$1" simulate --array random:200:5:12 --point 2.0,0,0 --hours 0.5 --integration 300 \
  --spw 230e9,3,50e6 --spw 240e9,3,50e6 --ra 10:00:00 --dec -30 -o "$ms" --overwrite
/usr/bin/python3 - "$ms" <<'PY'
import sys
from casacore.tables import table
ms = sys.argv[1]
t = table(ms, ack=False)
n = t.nrows()
assert n == 6 * 10 * 2, n                      # 6 integrations x 10 baselines x 2 spw
data = t.getcol('DATA')
assert data.shape == (n, 3, 2), data.shape     # rows x channels x correlations
assert abs(data - 2.0).max() < 1e-5            # point source at the phase centre, no noise
assert (t.getcol('WEIGHT') == 1.0).all() and not t.getcol('FLAG').any()
assert table(ms + '/OBSERVATION', ack=False).nrows() == 1
assert table(ms + '/FEED', ack=False).nrows() == 5
assert list(table(ms + '/POLARIZATION', ack=False).getcol('CORR_TYPE')[0]) == [9, 12]
print('python3-casacore read', n, 'rows, DATA', data.shape)
PY
