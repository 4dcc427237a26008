#!/bin/sh
# `tracecomb remap`: cuts inter-node traffic on a round-robin placement, writes
# only with -o, never into the trace directory.
. "$(dirname "$0")/../lib.sh"
tr="$TRACES/tracer-stencil4d-64p"
[ -d "$tr" ] || { echo "skip remap: no traces at $TRACES"; exit 0; }
"$BIN" remap "$tr" >"$TMPD/out" 2>&1
check remap-runs test $? -eq 0
# the stencil ranks alternate between 2 nodes: 256 inter-node messages, halved by a block placement
check remap-before-after grep -q "inter-node messages 256 -> 128 (50.0% fewer)" "$TMPD/out"
check remap-no-file-without-o test "$(ls "$TMPD")" = "out"
"$BIN" remap "$tr" -o "$TMPD/rankfile" --format openmpi >/dev/null 2>&1
check remap-openmpi-rankfile test "$(grep -c '^rank [0-9]*=quartz[12] slot=[0-9]*$' "$TMPD/rankfile")" = 64
"$BIN" remap "$tr" -o "$TMPD/machines" --format mpich >/dev/null 2>&1
check remap-mpich-machinefile test "$(grep -c '^quartz[12]:1$' "$TMPD/machines")" = 64
"$BIN" remap "$tr" -o "$tr/rankfile" >/dev/null 2>"$TMPD/err"
check remap-refuses-trace-dir test $? -eq 1 -a ! -e "$tr/rankfile"
check remap-refusal-message grep -q "refusing to write into the trace directory" "$TMPD/err"
"$BIN" remap "$tr" --format xml >/dev/null 2>&1
check remap-bad-format-exit-1 test $? -eq 1
