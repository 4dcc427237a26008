#!/bin/sh
# eval-corpus.sh [BIN] [CORPUS_DIR] — scores tracecomb's verdicts and origins
# against the truth of the planted-cause corpus (`make corpus`; the truth keys
# are in contrib/README.md, "Corpus").  For every CORPUS_DIR/<case>/ with
# traces.otf2 and truth.txt it runs `BIN report --json --section
# verdicts,steps` and `BIN info --json` and checks:
#   - the top verdict (verdicts.verdicts[0]) has a cause in truth's accept list
#     (plus noise for a clean twin that ran on a busy machine: noise_busy_blocks
#     >= 4 % of noise_blocks, compute sleeps the machine woke up late);
#   - planted cases (cause != none): its confidence is >= 0.5;
#   - imbalance truth: the verdict's ranks contain delay_rank (or, with no
#     delay_rank, one of truth's ranks), every rank of slow_ranks (a
#     slow group), and delay2_rank when it was delayed in the same
#     iteration as delay_rank (parallel delays);
#   - delay cases (delay_t0_ns in the truth): the top origin (steps.origins[0])
#     is on delay_rank and [enter_s, exit_s] overlaps [delay_t0_ns, delay_t1_ns]
#     converted to trace seconds, (t - clock.offset) / clock.resolution (or the
#     same for delay2_*; for a slow group, delay_iter=all with slow_ranks, on
#     any rank of the group).
# Prints "ok CASE" or "not ok CASE: expected ..., got ..." per case, then
# "planted: X of Y named; clean: X of Y quiet" (and how many clean misses ran
# while the machine was noisy, from truth's noise_* keys, and how many planted
# misses were drowned: the machine itself stalled a compute sleep, or added to
# one rank's compute in all, at least the planted delay, stall or latency, or
# added to the named ranks' compute at
# least half the excess the imbalance verdict found there; such clean misses
# count as noisy too).  Exit 0 when every case is ok,
# 1 otherwise, 2 when it cannot run (no jq, no corpus).
BIN=${1:-./tracecomb}
DIR=${2:-build/corpus}
if ! command -v jq >/dev/null 2>&1; then echo "eval-corpus: jq not installed (apt-get install jq; make deps)"; exit 2; fi
if [ ! -d "$DIR" ]; then echo "eval-corpus: no corpus at $DIR (make corpus)"; exit 2; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

key() { sed -n "s/^$1=//p" "$2" | head -n 1; }

# plant_ms TRUTH: the size of what was planted, in ms (the largest delay, the
# per-iteration slowdown, the background stall, the emulated inter-node
# latency); empty when it has none (a ramp)
plant_ms() {
	{
		for k in delay_ms delay2_ms slow_ms; do key $k "$1"; done
		for v in EMU_BG_US EMU_INTER_US; do
			key tracer_env "$1" | tr ' ' '\n' | sed -n "s/^TRACECOMB_$v=//p" | awk '{ print $1 / 1000 }'
		done
	} | sort -g | tail -n 1
}

# machine_made TRUTH RANKS EXCESS_S: prints why, when the machine itself added
# at least half of the excess an imbalance verdict found on RANKS to their
# compute (noise_rank_added_ms: sleep overruns beyond 0.2 ms, per rank)
machine_made() {
	added=$(key noise_rank_added_ms "$1")
	[ -n "$added" ] && [ -n "$2" ] || return 0
	echo "$added" | awk -v ranks="$2" -v x="$3" -F, '{
		n = split(ranks, r, ","); s = 0
		for (i = 1; i <= n; i++) s += $(r[i] + 1)
		if (x > 0 && s >= 500 * x) printf "machine-made: it added %.1f ms to the compute of ranks %s, the verdict found %.1f ms", s, ranks, 1000 * x
	}'
}

# in_list ITEM COMMA-LIST
in_list() { case ",$2," in *",$1,"*) return 0 ;; esac; return 1; }

# origin_hits TRUTH PREFIX ORANK OENTER OEXIT OFFSET RES: the origin is on PREFIX_rank and overlaps its interval
origin_hits() {
	r=$(key "$2_rank" "$1"); a=$(key "$2_t0_ns" "$1"); b=$(key "$2_t1_ns" "$1")
	[ -n "$r" ] && [ -n "$a" ] || return 1
	# a slow group (delay_iter=all, slow_ranks): any of its ranks
	if [ "$(key "$2_iter" "$1")" = all ] && [ -n "$(key slow_ranks "$1")" ]; then
		in_list "$3" "$(key slow_ranks "$1")" || return 1
	else
		[ "$3" = "$r" ] || return 1
	fi
	awk -v e="$4" -v x="$5" -v a="$a" -v b="$b" -v off="$6" -v res="$7" \
		'BEGIN { a = (a - off) / res; b = (b - off) / res; exit !(e <= b && x >= a) }'
}

np=0 npok=0 nc=0 ncok=0 bad=0 noisy=0 busy=0 drowned=0
for d in "$DIR"/*/; do
	d=${d%/}
	name=$(basename "$d")
	truth=$d/truth.txt
	[ -f "$truth" ] && [ -f "$d/traces.otf2" ] || continue
	cause=$(key cause "$truth"); accept=$(key accept "$truth")
	# a clean run on a busy machine (the tracer saw >= 4 % of the compute
	# sleeps woken up late by more than max(0.2 ms, a tenth of the sleep)) was
	# oversubscribed in fact: "noise" is a right answer, as for OVER runs
	if [ "$cause" = none ] && ! in_list noise "$accept" &&
	   awk -v b="$(key noise_busy_blocks "$truth")" -v n="$(key noise_blocks "$truth")" \
		'BEGIN { exit !(b != "" && n > 0 && b >= 0.04 * n) }'; then
		accept="$accept,noise"; busy=$((busy + 1))
	fi
	if [ "$cause" = none ]; then nc=$((nc + 1)); else np=$((np + 1)); fi
	why="" vc="" vr="" vx=""
	if ! "$BIN" report --json --section verdicts,steps "$d/traces.otf2" >"$tmp/rep.json" 2>"$tmp/err"; then
		why="report failed: $(head -c 200 "$tmp/err")"
	elif ! "$BIN" info --json "$d/traces.otf2" >"$tmp/info.json" 2>"$tmp/err"; then
		why="info failed: $(head -c 200 "$tmp/err")"
	else
		top=$(jq -r '.verdicts.verdicts[0] // {} | "\(.cause // "-") \(.confidence // 0) \(.evidence.excess_s // 0) \((.ranks // []) | map(tostring) | join(","))"' "$tmp/rep.json")
		set -- $top
		vc=$1 conf=$2 vx=$3 vr=${4:-}
		got="$vc (confidence $conf, ranks [$vr])"
		if ! in_list "$vc" "$accept"; then
			why="expected cause in {$accept}, got $got"
		elif [ "$cause" != none ] && ! awk -v c="$conf" 'BEGIN { exit !(c >= 0.5) }'; then
			why="expected confidence >= 0.5, got $got"
		elif [ "$cause" = imbalance ]; then
			dr=$(key delay_rank "$truth")
			if [ -n "$dr" ]; then
				in_list "$dr" "$vr" || why="expected rank $dr among the verdict's ranks, got $got"
			else
				hit=0
				for r in $(key ranks "$truth" | tr ',' ' '); do in_list "$r" "$vr" && hit=1; done
				[ $hit = 1 ] || why="expected one of ranks [$(key ranks "$truth")] among the verdict's ranks, got $got"
			fi
			# two delays in the same iteration (parallel): both ranks
			d2=$(key delay2_rank "$truth") di=$(key delay_iter "$truth")
			if [ -z "$why" ] && [ -n "$d2" ] && [ "$di" != all ] && [ "$(key delay2_iter "$truth")" = "$di" ] &&
			   ! in_list "$d2" "$vr"; then
				why="expected both ranks delayed in iteration $di ($dr, $d2) among the verdict's ranks, got $got"
			fi
			for r in $(key slow_ranks "$truth" | tr ',' ' '); do
				[ -z "$why" ] && ! in_list "$r" "$vr" && why="expected every slow rank [$(key slow_ranks "$truth")] among the verdict's ranks, got $got"
			done
		fi
		if [ -z "$why" ] && [ -n "$(key delay_t0_ns "$truth")" ]; then
			off=$(jq -r '.clock.offset' "$tmp/info.json"); res=$(jq -r '.clock.resolution' "$tmp/info.json")
			org=$(jq -r '.steps.origins[0] // {} | "\(.rank // "-") \(.enter_s // "-") \(.exit_s // "-") \(.region // "-")"' "$tmp/rep.json")
			set -- $org
			if ! origin_hits "$truth" delay "$1" "$2" "$3" "$off" "$res" &&
			   ! origin_hits "$truth" delay2 "$1" "$2" "$3" "$off" "$res"; then
				want=$(awk -v a="$(key delay_t0_ns "$truth")" -v b="$(key delay_t1_ns "$truth")" -v off="$off" -v res="$res" \
					'BEGIN { printf "[%.6f, %.6f] s", (a - off) / res, (b - off) / res }')
				if [ "$1" = - ]; then why="expected the top origin on rank $(key delay_rank "$truth") in $want, got no origin"
				else why="expected the top origin on rank $(key delay_rank "$truth") in $want, got rank $1 $4 [$2, $3] s"; fi
			fi
		fi
	fi
	made=""
	[ -n "$why" ] && [ "${vc:-}" = imbalance ] && made=$(machine_made "$truth" "$vr" "$vx")
	if [ -n "$why" ] && [ "$cause" = none ] && [ -n "$(key noise_blocks "$truth")" ]; then
		if awk -v m="$(key noise_max_overrun_ms "$truth")" 'BEGIN { exit !(m >= 10) }' || [ -n "$made" ]; then
			noisy=$((noisy + 1))
		fi
		why="$why${made:+ ($made)}"
		why="$why (machine noise during the run: $(key noise_late_blocks "$truth") of $(key noise_blocks "$truth") compute blocks overran by > 1 ms, at most $(key noise_max_overrun_ms "$truth") ms)"
	fi
	if [ -n "$why" ] && [ "$cause" != none ] && [ -n "$(key noise_blocks "$truth")" ]; then
		size=$(plant_ms "$truth")
		most=$(key noise_rank_added_ms "$truth" | tr ',' '\n' | sort -g | tail -n 1)
		if [ -n "$size" ] && awk -v m="$(key noise_max_overrun_ms "$truth")" -v p="$size" 'BEGIN { exit !(m >= p) }'; then
			drowned=$((drowned + 1))
			why="$why (drowned: the machine stalled a compute sleep by $(key noise_max_overrun_ms "$truth") ms, the plant is $size ms)"
		elif [ -n "$size" ] && [ -n "$most" ] && awk -v m="$most" -v p="$size" 'BEGIN { exit !(m >= p) }'; then
			drowned=$((drowned + 1))
			why="$why (drowned: the machine added $most ms to one rank's compute, the plant is $size ms)"
		elif [ -n "$made" ]; then
			drowned=$((drowned + 1))
			why="$why (drowned: $made)"
		fi
	fi
	if [ -z "$why" ]; then
		echo "ok $name"
		if [ "$cause" = none ]; then ncok=$((ncok + 1)); else npok=$((npok + 1)); fi
	else
		echo "not ok $name: $why"
		bad=$((bad + 1))
	fi
done
echo "planted: $npok of $np named; clean: $ncok of $nc quiet"
[ $busy = 0 ] || echo "($busy of the clean twins ran on a busy machine: noise accepted)"
[ $noisy = 0 ] || echo "($noisy of the clean misses ran on a noisy machine: a compute sleep overran by >= 10 ms, or the machine made the imbalance named)"
[ $drowned = 0 ] || echo "($drowned of the planted misses were drowned: the machine stalled a compute sleep by at least the plant, or made the imbalance named)"
[ $((np + nc)) -gt 0 ] || { echo "eval-corpus: no case with traces.otf2 and truth.txt under $DIR"; exit 2; }
[ $bad = 0 ]
