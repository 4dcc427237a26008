#!/bin/sh
# Benchmarks, all in one run.  Generates the bench archives once (reused when
# present; libotf2's default chunk sizes, as Score-P writes): 256 ranks x 2000
# iterations of a 2-D halo (~18.6 M events) with few tags (the direction) and
# with unique tags (the iteration number), and the scaling archives (1 M, 4 M,
# 60 M events at 256 ranks; 1k, 4k, 16k ranks at ~4 M events).  Then: the
# floor (bench/rawdecode), our load at 1 and 2 threads, report --json and the
# first frame against it (also with huge pages), in CPU time, for both 256-rank
# archives, each run after 4 s idle; every
# analysis against the floor; the scaling table; the regions at 1k/16k ranks,
# one 64k-rank phase clustered, the logical view's redraw at 64k ranks x 10^6
# steps and the list views; the analysis cache (prep, size, first frame from it);
# tracecomb-mpi prep at P = 1, 2, 4 when it is built.
# Usage: bench/run.sh BUILD BIN
BUILD=${1:-build}
BIN=${2:-./tracecomb}
case $BIN in */*) ;; *) BIN=./$BIN ;; esac   # the Makefile passes "tracecomb" for the default build
DATA=$BUILD/bench-data
for b in gen rawdecode touch load analysis regions clusters redraw views cache; do
	if [ ! -x "$BUILD/bench/$b" ]; then echo "bench: $BUILD/bench/$b is missing (make all)" >&2; exit 1; fi
done
# gen_once NAME GEN-OPTIONS...: $DATA/NAME, written once
gen_once() {
	name=$1
	shift
	if [ ! -f "$DATA/$name/traces.otf2" ]; then
		echo "== generating $DATA/$name (once)"
		"$BUILD/bench/gen" -o "$DATA/$name" --chunks default --force "$@" || exit 1
	fi
}
gen_once halo-256-few --tags few
gen_once halo-256-unique --tags unique
few=$DATA/halo-256-few
uniq=$DATA/halo-256-unique
echo "== warm-up (page cache): the floor"
"$BUILD/bench/rawdecode" "$few" >/dev/null || exit 1
"$BUILD/bench/rawdecode" "$uniq" || exit 1
echo "== what fresh memory costs here (the first write to each page; docs/model.md, Load time)"
touch_out=$("$BUILD/bench/touch") || exit 1
echo "$touch_out"
touch_ms=$(echo "$touch_out" | sed -n 's/^fresh_ms_per_mb=//p')
echo "== load, report --json and first frame (render --view logical --size 120x36) against the floor"
echo "   goals (CPU time / floor): load <= 1.5, report <= 3, first frame <= 2.5; peak <= 40 B/event; 2 threads faster than 1"
echo "   4 s idle before every run (session 23): each starts as a user's does, not on the memory the last run just freed"
"$BUILD/bench/load" --reps 3 --idle 4 --bin "$BIN" --touch-ms "$touch_ms" "$few" "$uniq" || exit 1
raw=$("$BUILD/bench/rawdecode" "$uniq" | sed -n 's/.*seconds=\([0-9.]*\).*/\1/p')
echo "== analyses on the unique-tag archive (wall time; the floor now $raw s)"
"$BUILD/bench/analysis" "$uniq" --raw "$raw" || exit 1
echo "== the analysis cache (docs/cache.md): prep, cache size / model bytes, first frame from the cache / floor"
echo "   goals: cache size <= 1.2x the model's bytes in memory; first frame from the cache <= 0.1x the floor (CPU)"
"$BUILD/bench/cache" --rounds 3 --idle 4 --bin "$BIN" --rawdecode "$BUILD/bench/rawdecode" "$uniq" || exit 1
# mpi_prep P [OPTION...]: tracecomb-mpi prep of the unique-tag archive with P
# processes, its wall time and each process's CPU time and peak RSS (--stats)
mpi_prep() {
	np=$1
	shift
	t0=$(date +%s%N)
	if ! mpirun $MPI_ROOT --oversubscribe --bind-to none --mca btl self,vader -np "$np" "$BUILD/tracecomb-mpi" prep \
		"$uniq" -o "$mtmp/c.tcc" --stats "$@" >"$mtmp/log" 2>&1; then
		cat "$mtmp/log"
		return 1
	fi
	t1=$(date +%s%N)
	echo "P=$np${1:+ with $1}: wall $(( (t1 - t0) / 1000000 )) ms"
	grep -E '^(process|steps)' "$mtmp/log" | sed 's/^/   /'
	rm -f "$mtmp/c.tcc"
}
if [ -x "$BUILD/tracecomb-mpi" ] && command -v mpirun >/dev/null 2>&1; then
	echo "== tracecomb-mpi prep of the unique-tag archive, P = 1, 2, 4 (docs/scale.md; a 2-core machine: P = 4 oversubscribed)"
	MPI_ROOT=""
	[ "$(id -u)" -eq 0 ] && MPI_ROOT="--allow-run-as-root"
	mtmp=$(mktemp -d)
	for P in 1 2 4; do mpi_prep $P || { rm -rf "$mtmp"; exit 1; }; done
	echo "== the replay over the parts (--replay: profile, wait states and every root-cause pass with their checks;"
	echo "   docs/scale.md \"Replay\"): its CPU time with the file's replay of the profile, wait states and root"
	echo "   causes (both summed in \"replay\") and what the larger adds to each process's peak"
	for P in 2 4; do mpi_prep $P --replay "$mtmp/r.json" || { rm -rf "$mtmp"; exit 1; }; done
	rm -rf "$mtmp"
else
	echo "== tracecomb-mpi prep: skipped ($BUILD/tracecomb-mpi not built or no mpirun: make mpi)"
fi
echo "== scaling: events at 256 ranks, then ranks at ~4 M events (unique tags; best of 2, CPU seconds, x = / floor)"
gen_once e1m --tags unique --iters 107
gen_once e4m --tags unique --iters 429
gen_once e60m --tags unique --iters 6440
gen_once r1k --tags unique --ranks 1024 --iters 107
gen_once r4k --tags unique --ranks 4096 --iters 27
gen_once r16k --tags unique --ranks 16384 --iters 7
"$BUILD/bench/load" --scale --idle 4 --bin "$BIN" "$DATA/e1m" "$DATA/e4m" "$uniq" "$DATA/e60m" \
	"$DATA/r1k" "$DATA/r4k" "$DATA/r16k" || exit 1
echo "== regions at 1k and 16k ranks (goals < 1 s and < 10 s)"
"$BUILD/bench/regions" || exit 1
echo "== one phase of 65536 ranks x 50 steps clustered (CLARA + single linkage; issue 5: seconds)"
"$BUILD/bench/clusters" || exit 1
echo "== logical view redraw at 64k ranks x 10^6 steps (goal <= 16 ms per key)"
"$BUILD/bench/redraw" || exit 1
echo "== list views and the calls view on the unique-tag archive (key + redraw)"
"$BUILD/bench/views" "$uniq" || exit 1
