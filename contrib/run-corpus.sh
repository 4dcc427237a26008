#!/bin/sh
# run-corpus.sh BUILD OUT [CASE...] — the planted-cause corpus: runs every case
# below (or only the named ones) under the tctrace tracer and writes
# OUT/<case>/{traces.otf2,traces/,truth.txt,expected.txt,run.log}.  truth.txt
# holds what was planted (contrib/README.md, "Corpus"): the static keys from the
# table below, then the app's own (seed, delay times, background window).
# A case is kept when its archive is newer than the tracer and its app and
# was made from the same table line (OUT/<case>/spec); CORPUS_FORCE=1 reruns
# all.  When mpirun cannot start processes here: one skip line, exit 0.
# Environment: MPIRUN_FLAGS (extra mpirun flags); SEED_SHIFT=K (default 0):
# every case's seed + K (its jitter, its tracer background draws): the same
# table as fresh runs nobody has seen (`make corpus-reseed-<set>`); BUSY=N (default 0): N
# processes spinning on the CPU beside the runs, started first and stopped at
# the end, to record the table on a busy machine (`make corpus-busy-<set>`;
# docs/verdicts.md, session 9: 3 on this 2-core machine, load about 5-6).
set -u
BUILD=$1 OUT=$2; shift 2
LIB=$BUILD/libtctrace.so
. "$(dirname "$0")/mpirun.sh"
mpirun_probe corpus "the corpus"

# CORPUS_SET names the case table, contrib/corpus/<set>.sh (main: the set the
# method was designed on; holdout: the same structures and causes with other
# parameters).  It defines cases(), which prints one case per line:
#   name|structure|cause|accept|ranks|np|seed|env|app and its arguments
#   env: tracer variables without the TRACECOMB_ prefix (RANKS_PER_NODE=2 NODE_MAP=cyclic
#        EMU_INTER_US=... INIT_PAD_MS=...), OVER=1 for a busy-polling oversubscribed run,
#        OVER=yield for more ranks than cores whose waiting ranks yield the CPU
#        (truth: oversubscribed=1 for both, busy_poll=1 for OVER=1 only).
#   Every app also gets --seed <seed> --jitter-us 200 (a case's own --jitter-us wins).
SET=${CORPUS_SET:-main}
TABLE=$(dirname "$0")/corpus/$SET.sh
[ -f "$TABLE" ] || { echo "corpus: no case table $TABLE (CORPUS_SET=$SET)"; exit 1; }
. "$TABLE"

mkdir -p "$OUT"
BUSY=${BUSY:-0}
hogs=""
stop_hogs() { [ -n "$hogs" ] && kill $hogs 2>/dev/null; hogs=""; }
trap 'stop_hogs' EXIT
trap 'stop_hogs; exit 130' INT TERM
i=0
while [ "$i" -lt "$BUSY" ]; do
	sh -c 'while :; do :; done' &
	hogs="$hogs $!"
	i=$((i + 1))
done
[ "$BUSY" -gt 0 ] && echo "corpus: $BUSY busy processes beside the runs"
t_all=$(date +%s.%N)
SEED_SHIFT=${SEED_SHIFT:-0}
cases | while IFS="|" read -r name structure cause accept ranks np seed env cmd; do
	[ -n "$name" ] || continue
	seed=$((seed + SEED_SHIFT))
	app=${cmd%% *} args=${cmd#"$app"}
	if [ $# -gt 0 ]; then
		want=0
		for c in "$@"; do [ "$c" = "$name" ] && want=1; done
		[ $want = 1 ] || continue
	fi
	dir=$OUT/$name
	bin=$BUILD/apps/$app
	spec="$name|$structure|$cause|$accept|$ranks|$np|$seed|$env|$app $args"
	if [ "${CORPUS_FORCE:-0}" != 1 ] && [ -f "$dir/traces.otf2" ] && [ -f "$dir/truth.txt" ] &&
	   [ "$dir/traces.otf2" -nt "$LIB" ] && [ "$dir/traces.otf2" -nt "$bin" ] &&
	   [ "$(cat "$dir/spec" 2>/dev/null)" = "$spec" ]; then
		echo "corpus $name: up to date"
		continue
	fi
	rm -rf "$dir"; mkdir -p "$dir"
	over=0 pad=0 rpn=0 map=block xs="" vars=""
	for kv in $env; do
		k=${kv%%=*} v=${kv#*=}
		case $k in
		OVER) over=$v; continue ;;
		INIT_PAD_MS) pad=$v ;;
		RANKS_PER_NODE) rpn=$v ;;
		NODE_MAP) map=$v ;;
		esac
		vars="$vars TRACECOMB_$kv"
		xs="$xs -x TRACECOMB_$k"
	done
	# runs yield the CPU while waiting; OVER=1 runs busy-poll (more ranks than cores);
	# OVER=yield: more ranks than cores, yielding
	yield=1 busy=0
	case $over in 1) yield=0 busy=1 ;; yield) over=1 ;; esac
	{
		echo "case=$name"; echo "structure=$structure"; echo "cause=$cause"; echo "accept=$accept"
		echo "ranks=$ranks"; echo "np=$np"; echo "oversubscribed=$over"; echo "busy_poll=$busy"
		echo "init_pad_ms=$pad"
		echo "ranks_per_node=$rpn"; echo "node_map=$map"; echo "tracer_env=$vars"
		echo "app=$app $args"
	} >"$dir/truth.txt"
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	if env $vars TRACECOMB_TRACE_DIR="$dir" TRACECOMB_QUIET=1 TRACECOMB_EMU_BG_SEED="$seed" \
	   timeout 120 $MPIRUN --mca mpi_yield_when_idle $yield -x LD_PRELOAD="$LIB" -x TRACECOMB_TRACE_DIR \
	   -x TRACECOMB_QUIET -x TRACECOMB_EMU_BG_SEED $xs -np "$np" \
	   "$bin" $args --seed "$seed" --jitter-us 200 --truth "$dir/truth.txt" --expect "$dir/expected.txt" \
	   </dev/null >"$dir/run.log" 2>&1 && [ -f "$dir/traces.otf2" ]; then
		echo "$spec" >"$dir/spec"
		echo "corpus $name: $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f s", b-a}')"
	else
		echo "corpus $name: FAILED (see $dir/run.log):"; tail -n 5 "$dir/run.log" | sed 's/^/  /'
		rm -f "$dir/traces.otf2"
		echo fail >"$OUT/.failed"
	fi
done
# a full run drops the directories of cases no longer in the table
if [ $# -eq 0 ]; then
	for d in "$OUT"/*/; do
		d=${d%/}
		[ -f "$d/truth.txt" ] || continue
		cases | cut -d'|' -f1 | grep -qx "$(basename "$d")" && continue
		rm -rf "$d"; echo "corpus $(basename "$d"): removed (no longer a case)"
	done
fi
echo "corpus: $(ls -d "$OUT"/*/ 2>/dev/null | wc -l) cases in $OUT ($(awk -v a="$t_all" -v b="$(date +%s.%N)" 'BEGIN{printf "%.0f s", b-a}'))"
if [ -f "$OUT/.failed" ]; then rm -f "$OUT/.failed"; exit 1; fi
exit 0
