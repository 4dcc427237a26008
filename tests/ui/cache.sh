#!/bin/sh
# The UI opened from the analysis cache (docs/cache.md): after `tracecomb prep`
# the status line says the cache was used; a stale one (an .evt touched) says
# why and the trace is read; --no-cache says nothing of a cache; a corrupt one
# is said and the trace read.  Each time the first frame is the logical view.
NAME=cache
. "$(dirname "$0")/../support/tmux.sh"
X="XDG_CACHE_HOME=$tmp/xdg"
cp -rp "$ST" "$tmp/st"
XDG_CACHE_HOME="$tmp/xdg" "$BIN" prep "$tmp/st" >/dev/null 2>&1 || echo "not ok cache-prep"

start 200 30 "$UTF $X" "$tmp/st"
check cache-used-status "cache: $tmp/xdg/tracecomb/st-"
check cache-used-says-used ".tcc used"
check cache-used-logical "logical |"
keys q

start 200 30 "$UTF $X" "--no-cache $tmp/st"
check no-cache-logical "logical |"
check_not no-cache-silent "cache:"
keys q

f=$(ls "$tmp"/xdg/tracecomb/*.tcc)
size=$(wc -c <"$f")
printf '\377' | dd of="$f" bs=1 seek=$((size / 3)) conv=notrunc 2>/dev/null
start 200 30 "$UTF $X" "$tmp/st"
check corrupt-status "cache: corrupt (section"
check corrupt-logical "logical |"
keys q

evt=$(cd "$tmp/st" && ls traces/*.evt | head -n 1)
XDG_CACHE_HOME="$tmp/xdg" "$BIN" prep "$tmp/st" >/dev/null 2>&1
touch -d "2001-02-03 04:05:06" "$tmp/st/$evt"
start 200 30 "$UTF $X" "$tmp/st"
check stale-status "cache: stale ($evt changed), reading the trace"
check stale-logical "logical |"
keys q

# a cache written by tracecomb-mpi (docs/scale.md): its logical steps are
# stored, the status line says only "used"; over --steps-bound it says the
# steps were not stored and why, and the logical view is drawn all the same
MPI_BIN=${BUILD:-build}/tracecomb-mpi
if [ -x "$MPI_BIN" ] && command -v mpirun >/dev/null 2>&1; then
	ROOT=""; [ "$(id -u)" -eq 0 ] && ROOT="--allow-run-as-root"
	MPIRUN="mpirun $ROOT --oversubscribe --bind-to none --mca btl self,vader"
	timeout 120 $MPIRUN -np 2 "$MPI_BIN" prep "$tmp/st" -o "$tmp/m.tcc" >/dev/null 2>&1 || echo "not ok mpi-cache-prep"
	start 200 30 "$UTF" "--cache $tmp/m.tcc $tmp/st"
	check mpi-cache-used "cache: $tmp/m.tcc used"
	check mpi-cache-logical "logical |"
	check_not mpi-cache-steps-stored "not stored"
	keys q
	timeout 120 $MPIRUN -np 2 "$MPI_BIN" prep "$tmp/st" -o "$tmp/m.tcc" --steps-bound 1K >/dev/null 2>&1 ||
		echo "not ok mpi-cache-prep-bound"
	start 200 30 "$UTF" "--cache $tmp/m.tcc $tmp/st"
	check mpi-cache-bound-says "used (the logical steps not stored by tracecomb-mpi"
	check mpi-cache-bound-logical "logical |"
	keys q
else
	echo "skip mpi-cache: no $MPI_BIN or mpirun"
fi
