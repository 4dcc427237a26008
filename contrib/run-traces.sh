#!/bin/sh
# run-traces.sh BUILD SIZE... — runs every mini-app under the tctrace tracer at
# each SIZE ranks (oversubscribed, shared memory only) and writes
# BUILD/traces/<app>-<n>p/{traces.otf2,traces/,expected.txt}.  A trace newer
# than the tracer and the app binary is kept.  When mpirun cannot start
# processes here, prints one skip line and exits 0.
# Environment: MPIRUN_FLAGS (extra mpirun flags), TRACES_FORCE=1 (rerun all).
set -u
BUILD=$1; shift
LIB=$BUILD/libtctrace.so
OUT=$BUILD/traces
. "$(dirname "$0")/mpirun.sh"
mpirun_probe contrib "traces"
mkdir -p "$OUT"
fail=0
for n in "$@"; do
	rpn=$((n / 4)); [ "$rpn" -lt 1 ] && rpn=1
	big=0; [ "$n" -gt 16 ] && big=1
	for app in halo2d tree ringallreduce groups masterworker slowinter; do
		case $app in
		halo2d) iters=$([ $big = 1 ] && echo 8 || echo 16)
			args="--iters $iters --bytes 4096 --compute-ms 2 --delay-rank $((n / 2 + 1)) --delay-iter $((iters / 2)) --delay-ms 150 --allreduce-every 4" ;;
		tree) args="--arity 3 --iters $([ $big = 1 ] && echo 3 || echo 6) --bytes 2048" ;;
		ringallreduce) args="--iters $([ $big = 1 ] && echo 1 || echo 3) --chunk 256" ;;
		groups) g=$((n / 4)); [ "$g" -gt 4 ] && g=4; [ "$g" -lt 2 ] && g=2
			args="--groups $g --iters $([ $big = 1 ] && echo 5 || echo 10) --bytes 32768" ;;
		masterworker) args="--tasks $((3 * n)) --task-ms 2 --slow-every 3 --slow-factor 4" ;;
		slowinter) args="--iters $([ $big = 1 ] && echo 6 || echo 10) --bytes 8192 --slow-ms 5" ;;
		esac
		dir=$OUT/$app-${n}p
		bin=$BUILD/apps/$app
		if [ "${TRACES_FORCE:-0}" != 1 ] && [ -f "$dir/traces.otf2" ] && [ -f "$dir/expected.txt" ] &&
		   [ "$dir/traces.otf2" -nt "$LIB" ] && [ "$dir/traces.otf2" -nt "$bin" ]; then
			echo "trace $app-${n}p: up to date"
			continue
		fi
		rm -rf "$dir"; mkdir -p "$dir"
		t0=$(date +%s.%N)
		# shellcheck disable=SC2086
		if TRACECOMB_TRACE_DIR="$dir" TRACECOMB_RANKS_PER_NODE=$rpn TRACECOMB_QUIET=1 \
		   timeout 120 $MPIRUN -x LD_PRELOAD="$LIB" -x TRACECOMB_TRACE_DIR -x TRACECOMB_RANKS_PER_NODE \
		   -x TRACECOMB_QUIET -np "$n" "$bin" $args --expect "$dir/expected.txt" >"$dir/run.log" 2>&1 &&
		   [ -f "$dir/traces.otf2" ]; then
			echo "trace $app-${n}p: $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f s", b-a}')"
		else
			echo "trace $app-${n}p: FAILED (see $dir/run.log):"; tail -n 5 "$dir/run.log" | sed 's/^/  /'
			rm -f "$dir/traces.otf2"
			fail=1
		fi
	done
done
exit $fail
