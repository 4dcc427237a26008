#!/bin/sh
# bench/run.sh BUILD — per-call cost of MPI calls at 2 ranks, without and with
# the tracer (LD_PRELOAD), best of 3 runs each.  Prints ns per call and the
# difference (the tracer's overhead per call).
set -u
BUILD=$1
ROOT=""
[ "$(id -u)" -eq 0 ] && ROOT="--allow-run-as-root"
MPIRUN="mpirun $ROOT --oversubscribe --bind-to none --mca btl self,vader ${MPIRUN_FLAGS:-}"
ITERS=${BENCH_ITERS:-20000}
tmp=$(mktemp -d)
for mode in plain traced; do
	for i in 1 2 3; do
		if [ $mode = plain ]; then
			$MPIRUN -np 2 "$BUILD/bench/overhead" --iters "$ITERS" >"$tmp/$mode.$i" || exit 1
		else
			TRACECOMB_TRACE_DIR="$tmp/trace$i" TRACECOMB_QUIET=1 $MPIRUN -x LD_PRELOAD="$BUILD/libtctrace.so" \
				-x TRACECOMB_TRACE_DIR -x TRACECOMB_QUIET -np 2 "$BUILD/bench/overhead" --iters "$ITERS" \
				>"$tmp/$mode.$i" || exit 1
		fi
	done
	# best (minimum) ns per call of each kind over the runs
	cat "$tmp/$mode".* | awk '{ if (!($1 in m) || $3 < m[$1]) m[$1] = $3 } END { for (k in m) print k, m[k] }' |
		sort >"$tmp/$mode"
done
echo "per-call cost at 2 ranks, $ITERS iterations, best of 3 (ns per MPI call)"
printf '%-22s %10s %10s %10s\n' kind untraced traced overhead
join "$tmp/plain" "$tmp/traced" | awk '{ printf "%-22s %10d %10d %10d\n", $1, $2, $3, $3 - $2 }'
rm -rf "$tmp"
