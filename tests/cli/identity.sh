#!/bin/sh
# Issue 15 added fields, never changed old ones: `report --json` (every
# section) on every shared trace, with the added fields deleted, equals the
# output of the base commit 110897c's binary byte for byte (after jq -c, which
# prints both sides alike).  The reference binary is $TC_REF_BIN, or built once
# from `git archive 110897c` into $BUILD/ref-110897c (a few minutes).
# Left out of the comparison: the fields added since (NEW below) and
# regions.seconds (the wall time that analysis took).
. "$(dirname "$0")/../lib.sh"
BASE=110897c
NEW='locations_by_type threads_per_rank streams_per_rank metrics per_rank per_location regions_total regions_truncated per_rank_total per_rank_truncated per_location_total per_location_truncated message_sizes_total message_sizes_truncated'
command -v jq >/dev/null || { echo "skip identity: jq not installed"; exit 0; }
[ -d "$TRACES" ] || { echo "skip identity: no traces at $TRACES"; exit 0; }
ref=${TC_REF_BIN:-}
if [ -z "$ref" ]; then
	top=$(cd "$(dirname "$0")/../.." && pwd)
	case $BUILD in /*) b=$BUILD ;; *) b=$top/$BUILD ;; esac
	ref=$b/ref-$BASE/tracecomb
	if [ ! -x "$ref" ]; then
		git -C "$top" cat-file -e "$BASE^{commit}" 2>/dev/null || { echo "skip identity: commit $BASE not in this clone"; exit 0; }
		rm -rf "$b/ref-$BASE" && mkdir -p "$b/ref-$BASE" &&
			git -C "$top" archive "$BASE" | tar -x -C "$b/ref-$BASE" &&
			make -C "$b/ref-$BASE" -j2 tracecomb >"$b/ref-$BASE.log" 2>&1 ||
			{ notok "identity-build-reference" "see $b/ref-$BASE.log"; exit 0; }
	fi
fi
filter='walk(if type == "object" then with_entries(select(.key as $k | ($new | index($k)) | not)) else . end) | del(.regions.seconds)'
newjson=$(printf '%s\n' $NEW | jq -R . | jq -s -c .)
for dir in "$TRACES"/*/; do
	name=$(basename "$dir")
	"$ref" report --json "$dir" 2>/dev/null | jq -c --argjson new "$newjson" "$filter" >"$TMPD/ref.json"
	"$BIN" report --json "$dir" 2>/dev/null | jq -c --argjson new "$newjson" "$filter" >"$TMPD/new.json"
	if [ -s "$TMPD/ref.json" ] && cmp -s "$TMPD/ref.json" "$TMPD/new.json"; then ok "identity-$name"
	else notok "identity-$name" "report --json differs from $BASE beyond the added fields"; fi
done
