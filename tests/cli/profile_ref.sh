#!/bin/sh
# Issue 15: the per-location and per-rank profile (`report --section profile
# --json`: per_location, per_rank) equal the by-hand reference built from
# otf2-print output (tests/support/otf2prof.awk) on every shared trace: every
# location × region and every rank × region, calls and exclusive / inclusive
# ticks exactly.  per_location is there exactly when a rank has calls on a
# second location (OpenMP threads, accelerator streams).
. "$(dirname "$0")/../lib.sh"
AWK=$(dirname "$0")/../support/otf2prof.awk
command -v otf2-print >/dev/null || { echo "skip profile_ref: otf2-print not installed"; exit 0; }
command -v jq >/dev/null || { echo "skip profile_ref: jq not installed"; exit 0; }
[ -d "$TRACES" ] || { echo "skip profile_ref: no traces at $TRACES"; exit 0; }
cells='[.[0], .[1], .[2], .[3], .[4]] | @tsv'
for dir in "$TRACES"/*/; do
	tn=$(basename "$dir")
	"$BIN" report --json --section profile "$dir" >"$TMPD/p.json" 2>/dev/null || { notok "profile-ref-loads-$tn"; continue; }
	otf2-print -G "$dir/traces.otf2" 2>/dev/null | awk '$1 == "LOCATION" && /Group: "MPI Rank / {
		g = $0; sub(/.*Group: "MPI Rank /, "", g); sub(/".*/, "", g); print $2, g }' >"$TMPD/ranks"
	otf2-print "$dir/traces.otf2" 2>/dev/null >"$TMPD/events"
	awk -f "$AWK" "$TMPD/events" | sort >"$TMPD/loc.ref"
	awk -v byrank="$TMPD/ranks" -f "$AWK" "$TMPD/events" | sort >"$TMPD/rank.ref"
	jq -r ".profile.per_rank[] | [.rank, .name, .calls, .exclusive_ticks, .inclusive_ticks] | $cells" "$TMPD/p.json" | sort >"$TMPD/rank.got"
	check "profile-ref-per-rank-$tn" cmp -s "$TMPD/rank.ref" "$TMPD/rank.got"
	nloc=$(cut -f 1 "$TMPD/loc.ref" | sort -u | wc -l)
	nrank=$(cut -f 1 "$TMPD/rank.ref" | sort -u | wc -l)
	if [ "$nloc" -gt "$nrank" ]; then
		jq -r ".profile.per_location[] | [.location, .name, .calls, .exclusive_ticks, .inclusive_ticks] | $cells" \
			"$TMPD/p.json" 2>/dev/null | sort >"$TMPD/loc.got"
		check "profile-ref-per-location-$tn" cmp -s "$TMPD/loc.ref" "$TMPD/loc.got"
	else
		check "profile-ref-no-per-location-$tn" [ "$(jq '.profile | has("per_location")' "$TMPD/p.json")" = false ]
	fi
done
