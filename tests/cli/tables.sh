#!/bin/sh
# Issue 15: nothing cut silently, and tables as CSV.
#  - `--limit N` cuts every long JSON list at N and says so (<list>_total,
#    <list>_truncated); --limit 0 lists everything;
#  - `report --csv --section NAME[.LIST]` writes the same records as the JSON
#    list (header = the records' fields, one row per record), checked against
#    jq's @csv of `report --json` on every shared trace;
#  - usage errors: --csv without one table, a section without a table.
. "$(dirname "$0")/../lib.sh"
command -v jq >/dev/null || { echo "skip tables: jq not installed"; exit 0; }
[ -d "$TRACES" ] || { echo "skip tables: no traces at $TRACES"; exit 0; }
# jq's CSV of a JSON list of flat records: header from the first record's keys
# (every record of our lists has the same fields), strings quoted only when needed
tocsv='(.[0] | keys_unsorted) as $k | ($k | join(",")), (.[] | [.[$k[]]] | map(if type == "string" and test("[,\"\n\r]") then "\"" + gsub("\""; "\"\"") + "\"" elif . == null then "" else tostring end) | join(","))'
for dir in "$TRACES"/*/; do
	tn=$(basename "$dir")
	"$BIN" report --json --limit 0 --section profile,waitstates,latency "$dir" >"$TMPD/all.json" 2>/dev/null
	for tab in profile.regions profile.per_rank profile.per_location waitstates.longest latency.top; do
		sec=${tab%%.*}; list=${tab#*.}
		[ "$(jq ".$sec | has(\"$list\") and (.$list | length > 0)" "$TMPD/all.json")" = true ] || continue
		# jq prints numbers its own way: compare the CSV's numbers read back by jq too
		jq -r ".$sec.$list | $tocsv" "$TMPD/all.json" >"$TMPD/want.csv"
		"$BIN" report --csv --section "$tab" "$dir" 2>/dev/null | jq -R -r 'split(",") | map(tonumber? // .) | map(tostring) | join(",")' >"$TMPD/got.csv"
		jq -R -r 'split(",") | map(tonumber? // .) | map(tostring) | join(",")' "$TMPD/want.csv" >"$TMPD/want2.csv"
		check "csv-$tab-$tn" cmp -s "$TMPD/want2.csv" "$TMPD/got.csv"
	done
done
# the profile of the CloverLeaf trace has 291 regions: 100 listed by default, and it says so
d="$TRACES/casita-cloverleaf-openacc-cuda-2p"
if [ -d "$d" ]; then
	"$BIN" report --json --section profile "$d" >"$TMPD/clover.json"
	check limit-default-regions [ "$(jq -c '.profile | [(.regions | length), .regions_total, .regions_truncated]' "$TMPD/clover.json")" = '[100,291,true]' ]
fi
# --limit: the profile's regions, the per-rank table and the longest waits of a real trace
d="$TRACES/casita-jacobi-mpi-omp-cuda-cpu015-2p"
if [ -d "$d" ]; then
	"$BIN" report --json --section profile,waitstates "$d" >"$TMPD/def.json"
	"$BIN" report --json --limit 3 --section profile,waitstates "$d" >"$TMPD/l3.json"
	"$BIN" report --json --limit 0 --section profile,waitstates "$d" >"$TMPD/l0.json"
	n=$(jq '.profile.regions_total' "$TMPD/def.json")
	check limit-3-every-list [ "$(jq '[.profile.regions, .profile.per_rank, .profile.per_location, .waitstates.longest] | map(length) | join(",")' "$TMPD/l3.json")" = '"3,3,3,3"' -a \
		"$(jq '[.profile.regions_truncated, .profile.per_rank_truncated, .profile.per_location_truncated, .waitstates.longest_truncated] | all' "$TMPD/l3.json")" = true ]
	check limit-0-all [ "$(jq '.profile.regions | length' "$TMPD/l0.json")" -eq "$n" -a "$(jq '.profile.regions_truncated' "$TMPD/l0.json")" = false ]
	check limit-totals-agree [ "$(jq '[.profile.per_rank_total, .profile.per_location_total, .waitstates.longest_total] | join(",")' "$TMPD/l3.json")" = \
		"$(jq '[(.profile.per_rank | length), (.profile.per_location | length), (.waitstates.longest | length)] | join(",")' "$TMPD/l0.json")" ]
	"$BIN" report --csv --section profile --limit 5 "$d" >"$TMPD/p5.csv"
	check csv-limit [ "$(wc -l <"$TMPD/p5.csv")" -eq 6 ]
	"$BIN" report --csv --section profile "$d" >"$TMPD/pall.csv"
	check csv-whole-by-default [ "$(wc -l <"$TMPD/pall.csv")" -eq $((n + 1)) ]
fi
d="$TRACES/pipit-ping-pong-2p"
"$BIN" report --csv --section info "$d" >"$TMPD/out" 2>"$TMPD/err"
rc=$?
check csv-no-table [ $rc -eq 1 -a ! -s "$TMPD/out" -a "$(grep -c 'has no table' "$TMPD/err")" -eq 1 ]
"$BIN" report --csv "$d" >"$TMPD/out" 2>"$TMPD/err"
check csv-needs-section [ $? -eq 1 -a ! -s "$TMPD/out" ]
"$BIN" report --csv --section profile.nothing "$d" >"$TMPD/out" 2>"$TMPD/err"
rc=$?
check csv-unknown-table [ $rc -eq 1 -a "$(grep -c 'tables: regions, message_sizes, per_rank)' "$TMPD/err")" -eq 1 ]
"$BIN" report --section profile.per_rank "$d" >"$TMPD/out" 2>"$TMPD/err"
check table-without-csv [ $? -eq 1 -a ! -s "$TMPD/out" ]
"$BIN" report --limit -1 "$d" >"$TMPD/out" 2>"$TMPD/err"
check limit-bad [ $? -eq 1 -a ! -s "$TMPD/out" ]
