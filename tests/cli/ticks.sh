#!/bin/sh
# Times in JSON at full precision (issue 15): every timestamp X (X_s, or
# start/end/first/last) in `report --json` has X_ticks beside it, an integer
# count of ticks since the trace's first timestamp (info.clock.offset), and
# X = X_ticks / clock.resolution to the 9 digits X is printed with.  The
# ticks are what a script compares exactly: the check also looks for one
# pair of distinct ticks whose seconds print the same (9 digits cannot tell
# them apart on the longer shared traces).
. "$(dirname "$0")/../lib.sh"
command -v jq >/dev/null || { echo "skip ticks: jq not installed"; exit 0; }
[ -d "$TRACES" ] || { echo "skip ticks: no traces at $TRACES"; exit 0; }
for dir in "$TRACES"/*/; do
	n=$(basename "$dir")
	"$BIN" report --json --limit 0 "$dir" >"$TMPD/r.json" 2>/dev/null || { notok "ticks-report-$n"; continue; }
	res=$(jq '.info.clock.resolution' "$TMPD/r.json")
	# every object with a *_ticks key: the pair agrees; count them
	bad=$(jq --argjson res "$res" '[.. | objects | to_entries[] | select(.key | endswith("_ticks"))] as $x
		| [.. | objects | . as $o | to_entries[] | select(.key | endswith("_ticks")) | .key as $k
		   | ($k | sub("_ticks$"; "")) as $b | ($o[$b + "_s"] // $o[$b]) as $s
		   | select(($s == null) or ((.value | floor) != .value)
		            or (((.value / $res) - $s) | fabs) > 5e-9 * ([1, ($s | fabs)] | max))] | length' "$TMPD/r.json")
	pairs=$(jq '[.. | objects | to_entries[] | select(.key | endswith("_ticks"))] | length' "$TMPD/r.json")
	check "ticks-agree-$n" test "$bad" = 0 -a "$pairs" -gt 0
done
# the stencil traces run ~55 ms at a resolution of 2.1e9 ticks/s: with 9
# digits some distinct enter ticks print the same seconds; the ticks differ
dir=$TRACES/tracer-stencil4d-64p
"$BIN" report --json --section waitstates,steps,critical_path --limit 0 "$dir" >"$TMPD/s.json" 2>/dev/null
same=$(jq '[.. | objects | select(has("enter_ticks")) | {s: .enter_s, t: .enter_ticks}] | unique
	| group_by(.s) | map(select(length > 1)) | length' "$TMPD/s.json")
check ticks-tell-apart-what-seconds-cannot test "${same:-0}" -gt 0
