#!/bin/sh
# contrib/verdict-diff.sh BEFORE AFTER [DIR...] — the run-level verdicts of two
# tracecomb binaries compared on every trace under the given directories
# (default: $TRACES, build/corpus*/, build/contrib/traces/): each trace whose
# claims at 0.5 or more differ (cause and ranks) is listed with both lists;
# the last line counts the traces and those that differ, and how many differ
# only below 0.5.  Run it after any change to the verdicts' rules: a rule
# change must move only the verdicts it was written for (docs/verdicts.md).
# Needs jq.
set -u
[ $# -ge 2 ] || { echo "usage: $0 BEFORE AFTER [DIR...]" >&2; exit 2; }
A=$1 B=$2
shift 2
[ $# -gt 0 ] || set -- "${TRACES:-../shared/traces}"/*/ build/corpus*/*/ build/contrib/traces/*/
command -v jq >/dev/null || { echo "$0: needs jq" >&2; exit 2; }
# the verdicts section of binary $1 on trace $2, read once; then both views of it
verdicts() { "$1" report "$2" --json --no-cache --section verdicts 2>/dev/null; }
claims() { jq -c '[.verdicts.verdicts[]? | select(.confidence >= 0.5) | {cause, ranks}]' 2>/dev/null; }
all() { jq -c '[.verdicts.verdicts[]? | {cause, ranks, c: (.confidence * 1000 | floor)}]' 2>/dev/null; }
n=0 d=0 small=0
for tr in "$@"; do
	f=$(ls "$tr"/*.otf2 2>/dev/null | head -n 1)
	[ -n "$f" ] || continue
	n=$((n + 1))
	va=$(verdicts "$A" "$f") vb=$(verdicts "$B" "$f")
	if [ "$(printf "%s\n" "$va" | claims)" != "$(printf "%s\n" "$vb" | claims)" ]; then
		d=$((d + 1))
		echo "DIFF $tr"; echo "  before $(printf "%s\n" "$va" | all)"; echo "  after  $(printf "%s\n" "$vb" | all)"
	elif [ "$(printf "%s\n" "$va" | all)" != "$(printf "%s\n" "$vb" | all)" ]; then
		small=$((small + 1))
	fi
done
echo "$n traces, $d with other claims at 0.5 or more, $small with other confidences only"
