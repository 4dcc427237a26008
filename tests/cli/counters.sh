#!/bin/sh
# Issue 15: `report --section counters` per function equals the by-hand values
# from otf2-print (tests/support/otf2prof.awk, counters mode) on every shared
# trace: each rank × function × accumulated metric, calls, exclusive and
# inclusive values exactly (the PAPI trace: 3 counters × 7 functions × 2 ranks).
. "$(dirname "$0")/../lib.sh"
AWK=$(dirname "$0")/../support/otf2prof.awk
command -v otf2-print >/dev/null || { echo "skip counters: otf2-print not installed"; exit 0; }
command -v jq >/dev/null || { echo "skip counters: jq not installed"; exit 0; }
[ -d "$TRACES" ] || { echo "skip counters: no traces at $TRACES"; exit 0; }
for dir in "$TRACES"/*/; do
	tn=$(basename "$dir")
	"$BIN" report --json --section counters "$dir" >"$TMPD/c.json" 2>/dev/null || { notok "counters-loads-$tn"; continue; }
	otf2-print -G "$dir/traces.otf2" 2>/dev/null >"$TMPD/defs"
	awk '$1 == "LOCATION" && /Group: "MPI Rank / { g = $0; sub(/.*Group: "MPI Rank /, "", g); sub(/".*/, "", g); print $2, g }' \
		"$TMPD/defs" >"$TMPD/ranks"
	acc=$(awk '$1 == "METRIC_MEMBER" && /Mode: ACCUMULATED/ { n = $0; sub(/.*Name: "/, "", n); sub(/".*/, "", n); printf "%s%s", s, n; s = "," }' "$TMPD/defs")
	if [ -n "$acc" ]; then
		otf2-print "$dir/traces.otf2" 2>/dev/null | awk -v byrank="$TMPD/ranks" -v counters="$acc" -f "$AWK" | sort >"$TMPD/want"
	else : >"$TMPD/want"; fi
	jq -r '.counters.per_function[] | [.rank, .name, .metric, .calls, .exclusive, .inclusive] | @tsv' "$TMPD/c.json" | sort >"$TMPD/got"
	check "counters-per-function-$tn" cmp -s "$TMPD/want" "$TMPD/got"
done
d="$TRACES/pipit-ping-pong-papi-2p"
if [ -d "$d" ]; then
	"$BIN" report --json --section counters "$d" >"$TMPD/papi.json"
	check counters-papi-cells [ "$(jq '.counters.per_function | length' "$TMPD/papi.json")" -eq 42 ]
	check counters-papi-per-rank [ "$(jq -c '[.counters.per_rank[] | "\(.metric):\(.rank):\(.samples)"] | sort' "$TMPD/papi.json")" = \
		'["PAPI_BR_MSP:0:42","PAPI_BR_MSP:1:42","PAPI_L2_TCM:0:42","PAPI_L2_TCM:1:42","PAPI_TOT_CYC:0:42","PAPI_TOT_CYC:1:42"]' ]
fi
