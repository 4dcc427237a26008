#!/bin/sh
# The rank filter (`render --filter`, the UI's `f`) applies in the list views
# (wait states, regions, evolution, verdicts, clusters, dag, calls, profile, overview): their rows are the
# filter's ranks, a global result says so, and the title never adds
# "(all ranks here)" for them.  And the region matrix: each row of it sits on
# the table row of the region it counts from (its diagonal cell "·" is in the
# column headed by that row's region id).
NAME=render-filter
. tests/support/render.sh
tmp=$(mktemp)
S64=$TRACES/tracer-stencil4d-64p
S32=$TRACES/tracer-stencil4d-32p
LS=$TRACES/casita-late-sender-barrier-4p
ok() { if [ "$2" = 1 ]; then echo "ok $1"; else echo "not ok $1"; sed -n 1,40p "$tmp"; fi; }

# the views that apply the filter do not say "(all ranks here)"
for v in waitstates regions evolution verdicts clusters dag calls profile overview; do
	"$BIN" render "$S64" --view $v --size 120x30 --filter '^(4|5)$' >"$tmp" 2>&1
	r=1
	head -n 1 "$tmp" | grep -q 'f:^(4|5)\$' || r=0
	grep -q 'all ranks here' "$tmp" && r=0
	ok "filter-title-$v" $r
done

# calls: both halves count the filter's ranks (issue 14): the header names them, and the
# calls starting under the cursor column are rank 1's only (fewer than everyone's)
"$BIN" render "$S32" --view calls --size 100x24 --filter '^1$' >"$tmp" 2>&1
r=1
grep -q 'Share of the 1 rank of f: in MPI functions' "$tmp" || r=0
grep -q 'MPI calls (ranks of f:)' "$tmp" || r=0
one=$(sed -n 's/.*| \([0-9]*\) calls\{0,1\} start.*/\1/p' "$tmp")
all=$("$BIN" render "$S32" --view calls --size 100x24 | sed -n 's/.*| \([0-9]*\) calls\{0,1\} start.*/\1/p')
[ -n "$one" ] && [ -n "$all" ] && [ "$one" -lt "$all" ] || r=0
ok filter-calls $r

# wait states: the ranks listed are rank 1 only, the header counts 1 of 32
"$BIN" render "$S32" --view waitstates --size 100x30 --filter '^1$' >"$tmp" 2>&1
r=1
grep -q '(ranks of f: 1 of 32)' "$tmp" || r=0
[ "$(grep -c '^  rank ' "$tmp")" -ge 1 ] || r=0
grep '^  rank ' "$tmp" | grep -vq '^  rank 1 ' && r=0
ok filter-waitstates-rows $r
# ... and its totals are rank 1's, smaller than everyone's
all=$("$BIN" render "$S32" --view waitstates --size 100x30 | sed -n 3p)
one=$(sed -n 3p "$tmp")
[ "$all" != "$one" ] && ok filter-waitstates-totals 1 || ok filter-waitstates-totals 0

# regions: the two regions holding ranks 1-4 of the 64 (0-3 and 4-7), nothing else
"$BIN" render "$S64" --view regions --size 120x24 --filter '^(1|2|3|4)$' >"$tmp" 2>&1
ids=$(awk 'NR > 5 && /^[> ] +[0-9]+ [0-9]/ { print $(/^>/ ? 2 : 1) }' "$tmp" | sort -n | tr '\n' ' ')
r=1
[ "$ids" = "0 1 " ] || r=0
grep -q '2 regions (of 16; with ranks of f:)' "$tmp" || r=0
ok filter-regions-rows $r

# evolution: the global row says so, the region rows are r0 and r1
"$BIN" render "$S64" --view evolution --size 100x20 --filter '^(1|2|3|4)$' >"$tmp" 2>&1
r=1
grep -q 'all ranks' "$tmp" || r=0
[ "$(grep -c '^ r[0-9]' "$tmp")" = 2 ] || r=0
grep -q '^ r[2-9]' "$tmp" && r=0
ok filter-evolution-rows $r

# verdicts: the verdict stays global and says so; blamed rank 0 is outside '^[23]$'
"$BIN" render "$LS" --view verdicts --size 100x60 --filter '^[23]$' >"$tmp" 2>&1
r=1
grep -q '(verdict over all ranks' "$tmp" || r=0
grep -q 'blamed rank outside the filter' "$tmp" || r=0
grep -q '^  rank 0 on' "$tmp" && r=0
ok filter-verdicts-rows $r

# clusters: the focus rows are the filter's ranks
"$BIN" render "$S64" --view clusters --size 120x20 --filter '^(4|5)$' >"$tmp" 2>&1
r=1
grep -q 'clusters over all ranks' "$tmp" || r=0
focus=$(awk -F'│' 'NR > 3 && $2 ~ /^ *[0-9]+ / { split($2, f, " "); printf "%s ", f[1] } $2 ~ /^─/ { exit }' "$tmp")
[ "$focus" = "4 5 " ] || r=0
ok filter-clusters-focus $r

# dag: the rows are the filter's ranks of the DAG's region (16-19 in the hot spot)
"$BIN" render "$S64" --view dag --size 120x14 --filter '^(17|18)$' >"$tmp" 2>&1
rows=$(awk '/^[+-] +[0-9]+ / { printf "%s ", $2 }' "$tmp")
r=1
[ "$rows" = "17 18 " ] || r=0
grep -q 'rows: ranks of f:' "$tmp" || r=0
ok filter-dag-rows $r

# the region matrix lines up with the table: row of region X has "·" under column X
# (the table and the matrix rows are ASCII but for "·", made "D" to count bytes)
for sz in 120x24 120x40 100x14; do
	"$BIN" render "$S64" --view regions --size $sz 2>&1 | sed 's/·/D/g' >"$tmp"
	res=$(awk '
		/s messages to *$/ { hdr = NR + 1; next }
		hdr && NR == hdr { n = length($0)
			for (i = 1; i <= n; i++) { ch = substr($0, i, 1)
				if (ch ~ /[0-9]/) { id = id ch; end = i } else if (id != "") { if (end > 56) col[id] = end; id = "" } }
			if (id != "" && end > 56) col[id] = end
			next }
		hdr && NR > hdr && /^[> ] +[0-9]+ [0-9]/ { rid = $(/^>/ ? 2 : 1)
			if (rid in col) { rows++; if (substr($0, col[rid], 1) != "D") bad++ } }
		END { printf "%d %d\n", rows + 0, bad + 0 }' "$tmp")
	rows=${res% *}; bad=${res#* }
	[ "$rows" -gt 0 ] && [ "$bad" = 0 ] && ok "regions-matrix-aligned-$sz" 1 || ok "regions-matrix-aligned-$sz" 0
done
rm -f "$tmp"
