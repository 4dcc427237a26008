#!/bin/sh
# Benchmarks, all in one run: generates the ~18 M-event halo2d trace once (256
# ranks x 2000 iterations, reused when present), compares our load with raw
# libotf2 decode, times every analysis against the raw decode of the same
# archive, the whole report against it, then the regions at 1k/16k ranks, one 64k-rank phase clustered,
# and the logical view's redraw at 64k ranks x 10^6 steps.
# Usage: bench/run.sh BUILD BIN
BUILD=${1:-build}
BIN=${2:-./tracecomb}
case $BIN in */*) ;; *) BIN=./$BIN ;; esac   # the Makefile passes "tracecomb" for the default build
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
echo "== full analysis: tracecomb report, every section, default threads (design goal: <= 3 x raw decode)"
best=""
for i in 1 2 3; do
	t0=$(date +%s.%N)
	"$BIN" report "$data" >/dev/null || exit 1
	t1=$(date +%s.%N)
	best=$(echo "$t0 $t1 $best" | awk '{d = $2 - $1; if ($3 == "" || d < $3) print d; else print $3}')
done
raw=$("$BUILD/bench/rawdecode" "$data" | sed -n 's/.*seconds=\([0-9.]*\).*/\1/p')
echo "$best $raw" | awk '{r = $1 / $2; printf "  report %.3f s, raw decode %.3f s: %.2f x raw   (goal <= 3.0: %s)\n", $1, $2, r, r <= 3 ? "met" : "MISSED"}'
echo "== regions at 1k and 16k ranks (goals < 1 s and < 10 s)"
"$BUILD/bench/regions" || exit 1
echo "== one phase of 65536 ranks x 50 steps clustered (CLARA + single linkage; issue 5: seconds)"
"$BUILD/bench/clusters" || exit 1
echo "== logical view redraw at 64k ranks x 10^6 steps (goal <= 16 ms per key)"
"$BUILD/bench/redraw" || exit 1
echo "== list views and the calls view on the same archive (key + redraw)"
"$BUILD/bench/views" "$data" || exit 1
