#!/bin/sh
# verdicts.sh — `tracecomb report --section verdicts|dag` on generated traces
# with planted causes (bench/gen): round-robin mapping, master/worker, one
# delayed rank, inter-node noise in one part of the run, and a clean run.
# Prints "ok NAME" / "not ok NAME" per case.  Env: BIN, BUILD.
. "$(dirname "$0")/../lib.sh"
GEN=$BUILD/bench/gen
[ -x "$GEN" ] || { echo "skip verdicts: no $GEN"; exit 0; }
have_jq=no
command -v jq >/dev/null 2>&1 && have_jq=yes

gen() { # gen NAME ARGS...: 64 ranks on 4 nodes, 16 per node (check() owns $name)
	g=$1; shift
	"$GEN" -o "$TMPD/$g" --ranks 64 "$@" >"$TMPD/$g.gen" 2>&1 || notok "$g-gen" "$(cat "$TMPD/$g.gen")"
	"$BIN" report "$TMPD/$g" --section verdicts >"$TMPD/$g.txt" 2>"$TMPD/$g.err"
	check "$g-text-exit" test $? -eq 0
	"$BIN" report "$TMPD/$g" --section verdicts --json >"$TMPD/$g.json" 2>>"$TMPD/$g.err"
	check "$g-json-exit" test $? -eq 0
}
# first verdict line of the text (what a user reads first): "CAUSE CONF [SCOPE] SUMMARY"
first_cause() { sed -n '2p' "$TMPD/$1.txt" | awk '{print $1}'; }
jqv() { jq -e "$@" >/dev/null 2>&1; }

# --- poor mapping: halo neighbours alternate between nodes --------------------
gen rr --iters 200 --mapping roundrobin
check mapping-first test "$(first_cause rr)" = mapping
before=$(json_num "$TMPD/rr.json" inter_node_messages_before)
after=$(json_num "$TMPD/rr.json" inter_node_messages_after)
check mapping-remap-numbers test -n "$before" -a -n "$after" -a "${before:-0}" -gt 0
check mapping-remap-cuts-30pct test "${before:-0}" -gt 0 -a $((100 * (${before:-0} - ${after:-0}))) -ge $((30 * ${before:-0}))
check mapping-text-before-after grep -q "inter-node messages $before -> $after" "$TMPD/rr.txt"
check mapping-advice-o1 grep -q "O1 remap" "$TMPD/rr.txt"
if [ $have_jq = yes ]; then
	check mapping-json-contract jqv '.verdicts.verdicts[0] | .cause == "mapping" and .scope == "run" and .window == null
		and (.confidence >= 0.5 and .confidence <= 1) and (.ranks | type == "array")
		and (.evidence.remap_cut >= 0.3) and (.evidence.inter_share >= 0.4) and (.advice | test("O1"))
		and (.evidence.path_share >= 0.075) and (.evidence.own_inter_over_intra > 2)' "$TMPD/rr.json"
	check mapping-remap-object jqv '.verdicts.remap | has("inter_node_messages_before") and has("inter_node_messages_after")
		and has("inter_node_bytes_before") and has("inter_node_bytes_after")
		and .inter_node_bytes_after < .inter_node_bytes_before' "$TMPD/rr.json"
fi

# --- many-to-one: master/worker, workers 1..8 compute 3x ------------------------
gen mw --iters 60 --pattern masterworker --imbalance
c=$(first_cause mw)
check pattern-or-imbalance-first test "$c" = pattern -o "$c" = imbalance
if [ $have_jq = yes ]; then
	# the hot spot is found (all claims shown: the pattern claim is weighted by the
	# master's share of the critical path, small here: the slow workers hold it)
	"$BIN" report "$TMPD/mw" --section verdicts --json --opt verdict_min_confidence=0 >"$TMPD/mw0.json" 2>/dev/null
	check pattern-names-master jqv '[.verdicts.verdicts[] | select(.cause == "pattern")][0]
		| .ranks == [0] and .evidence.max_over_mean >= 8 and .evidence.busiest_partners == 63
		and .evidence.path_share < 0.15 and (.advice | test("O2"))' "$TMPD/mw0.json"
	# a compute-imbalance claim, if any, names only planted slow workers (1..8)
	check imbalance-names-slow-workers jqv 'all(.verdicts.verdicts[] | select(.cause == "imbalance"); all(.ranks[]; . >= 1 and . <= 8))' "$TMPD/mw.json"
	check pattern-lb-per-rank jqv '.verdicts.ranks[0].lb > 10 and .verdicts.ranks[5].lb < 2' "$TMPD/mw.json"
fi

# --- one rank's computation delayed at one iteration ------------------------------
gen delay --iters 200 --delay 21:100:0.004
check imbalance-first test "$(first_cause delay)" = imbalance
check imbalance-text-names-rank grep -q "^imbalance .*rank 21 " "$TMPD/delay.txt"
if [ $have_jq = yes ]; then
	check imbalance-json jqv '.verdicts.verdicts[0] | .cause == "imbalance" and .ranks == [21]
		and .confidence >= 0.8 and .evidence.excess_s > 0.0035 and .evidence.caused_s > 0.004
		and .steps[0].rank == 21 and .steps[0].seconds > 0.0035' "$TMPD/delay.json"
	check imbalance-only-claim jqv '[.verdicts.verdicts[].cause] == ["imbalance"]' "$TMPD/delay.json"
fi

# --- background traffic on inter-node links in the middle of the run -------------
gen noise --iters 200 --noise-inter 0.5:0.75:0.0002
check background-first test "$(first_cause noise)" = background
if [ $have_jq = yes ]; then
	# the noisy part is iterations 100-149; the verdict's window lies inside the
	# middle of the run and no background claim touches the quiet first third
	check background-window jqv '.verdicts.run.span_s as $s | [.verdicts.verdicts[] | select(.cause == "background")]
		| length >= 1 and .[0].window != null and .[0].window.start > 0.3 * $s and .[0].window.end < 0.95 * $s
		and .[0].evidence.path_share >= 0.15 and .[0].evidence.beyond_noise == 1 and .[0].ranks == []' "$TMPD/noise.json"
	check background-not-quiet jqv '.verdicts.run.span_s as $s
		| all(.verdicts.verdicts[] | select(.cause == "background"); .window.start > 0.3 * $s)' "$TMPD/noise.json"
	check background-window-flags jqv '.verdicts.windows as $w | ($w.disturbed | index(true)) > 10
		and ($w.disturbed[0:10] | all(. == false)) and ($w.disturbed | length) == $w.count' "$TMPD/noise.json"
	check background-advice-o3 jqv '.verdicts.verdicts[0].advice | test("O3")' "$TMPD/noise.json"
fi

# --- a clean run: block mapping, balanced, no noise --------------------------------
gen clean --iters 200
check clean-none test "$(first_cause clean)" = none
check clean-one-line test "$(grep -c '^[a-z]* *[01]\.[0-9][0-9]  \[' "$TMPD/clean.txt")" = 1
if [ $have_jq = yes ]; then
	check clean-json-none jqv '.verdicts.verdicts | length == 1 and .[0].cause == "none" and .[0].ranks == []' "$TMPD/clean.json"
	check clean-remap-no-gain jqv '.verdicts.remap.inter_node_messages_after == .verdicts.remap.inter_node_messages_before' "$TMPD/clean.json"
	# the JSON contract: every verdict has the fields, ranked by the share of the
	# critical path it explains (noise counting half; docs/verdicts.md)
	for n in rr mw delay noise clean; do
		check "$n-contract" jqv '.verdicts.verdicts | length >= 1 and
			all(.[]; (.scope == "run" or (.scope | type == "number")) and (.window == null or (.window.start <= .window.end))
			    and (.cause | IN("mapping", "pattern", "imbalance", "background", "noise", "none"))
			    and (.confidence >= 0 and .confidence <= 1) and (.ranks | type == "array")
			    and (.evidence | type == "object") and (.advice | type == "string"))
			and ([.[] | (.evidence.path_share // -1) * (if .cause == "noise" then 0.5 else 1 end)] as $k
			     | $k == ($k | sort | reverse))' "$TMPD/$n.json"
	done
fi

# --- the dag section ------------------------------------------------------------------
"$BIN" report "$TMPD/delay" --section dag --json --opt dag_max_msgs=300 >"$TMPD/dag.json" 2>>"$TMPD/dag.err"
check dag-json-exit test $? -eq 0
"$BIN" report "$TMPD/delay" --section dag >"$TMPD/dag.txt" 2>>"$TMPD/dag.err"
check dag-text-levels grep -q "^level 1 (" "$TMPD/dag.txt"
check dag-text-rows grep -q "per rank (CS-glyph rows)" "$TMPD/dag.txt"
if [ $have_jq = yes ]; then
	check dag-edges-go-down jqv '.dag as $d | ($d.edges | length) > 0 and ($d.edges | length) == $d.messages
		and $d.messages <= 300
		and all($d.edges[]; $d.nodes[.from].level < $d.nodes[.to].level and $d.nodes[.from].send > 0
		        and $d.nodes[.to].recv > 0)' "$TMPD/dag.json"
	check dag-rank-rows jqv '.dag.ranks | length > 0 and all(.[]; has("lb") and has("msgs_in") and has("msgs_out")
		and has("bytes_in") and has("transfer_in") and has("mean_l") and has("node"))' "$TMPD/dag.json"
	# the chosen window by option
	"$BIN" report "$TMPD/delay" --section dag --json --opt dag_window=3 >"$TMPD/dag3.json" 2>/dev/null
	w=$(jq '.verdicts.windows.window_s' "$TMPD/delay.json")
	check dag-window-option jqv --argjson w "$w" '.dag.start >= 2.9 * $w and .dag.start <= 3.1 * $w + 0.001' "$TMPD/dag3.json"
fi
