#!/bin/sh
# Benchmarks, all in one run: generates the ~18 M-event halo2d trace once (256
# ranks x 2000 iterations, reused when present), compares our load with raw
# libotf2 decode, times every analysis against the raw decode of the same
# archive, then the regions at 1k/16k ranks, one 64k-rank phase clustered,
# and the logical view's redraw at 64k ranks x 10^6 steps.
# Usage: bench/run.sh BUILD BIN
BUILD=${1:-build}
BIN=${2:-./tracecomb}
data=$BUILD/bench-data/halo-256
for b in gen rawdecode load analysis regions clusters redraw views; do
	if [ ! -x "$BUILD/bench/$b" ]; then echo "bench: $BUILD/bench/$b is missing (make all)" >&2; exit 1; fi
done
if [ ! -f "$data/traces.otf2" ]; then
	echo "== generating $data (once)"
	"$BUILD/bench/gen" -o "$data" --force || exit 1
fi
echo "== warm-up (page cache): raw decode"
"$BUILD/bench/rawdecode" "$data" || exit 1
echo "== load benchmark   goal: our load / raw decode <= 1.5 at the same thread count; also reported: 2-thread load / 1-thread raw, bytes/event, 2-thread speed-up"
"$BUILD/bench/load" "$data" || exit 1
raw=$("$BUILD/bench/rawdecode" "$data" | sed -n 's/.*seconds=\([0-9.]*\).*/\1/p')
echo "== analyses on the same archive (raw decode now $raw s)"
"$BUILD/bench/analysis" "$data" --raw "$raw" || exit 1
echo "== regions at 1k and 16k ranks (goals < 1 s and < 10 s)"
"$BUILD/bench/regions" || exit 1
echo "== one phase of 65536 ranks x 50 steps clustered (CLARA + single linkage; issue 5: seconds)"
"$BUILD/bench/clusters" || exit 1
echo "== logical view redraw at 64k ranks x 10^6 steps (goal <= 16 ms per key)"
"$BUILD/bench/redraw" || exit 1
echo "== list views and the calls view on the same archive (key + redraw)"
"$BUILD/bench/views" "$data" || exit 1
