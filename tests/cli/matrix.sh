#!/bin/sh
# The matrix view (`render --view matrix`, src/ui/views/matrix.c) on every shared
# trace: its footer's totals (bytes, messages) equal the sum of `info --json`
# comm_matrix_bytes, messages.matched, and the Length of otf2-print's MPI_SEND /
# MPI_ISEND records (when every send is matched); it renders at any size, and
# --ascii output is 7-bit.
. "$(dirname "$0")/../lib.sh"
[ -d "$TRACES" ] || { echo "skip matrix: no traces at $TRACES"; exit 0; }
command -v jq >/dev/null || { echo "skip matrix: jq not installed"; exit 0; }

for dir in "$TRACES"/*/; do
	tr=$(basename "$dir")
	"$BIN" info --json "$dir" >"$TMPD/j" 2>/dev/null || { notok "matrix-total-$tr" "info failed"; continue; }
	"$BIN" render "$dir" --view matrix --size 200x80 >"$TMPD/r" 2>"$TMPD/err" || { notok "matrix-total-$tr" "$(cat "$TMPD/err")"; continue; }
	got=$(sed -n 's/^total \([0-9]*\) bytes in \([0-9]*\) messages.*/\1 \2/p' "$TMPD/r")
	want=$(jq -r '"\([.comm_matrix_bytes[][]] | add // 0) \(.messages.matched)"' "$TMPD/j")
	check "matrix-total-$tr" test "$got" = "$want"
	if command -v otf2-print >/dev/null && [ "$(jq .messages.unmatched_sends "$TMPD/j")" = 0 ]; then
		sent=$(otf2-print "$dir/traces.otf2" 2>/dev/null | awk '$1 == "MPI_SEND" || $1 == "MPI_ISEND" {
			for (i = 4; i <= NF; i++) if ($i == "Length:") { s += $(i + 1); n++ } }
			END { printf "%d %d\n", s, n }')
		check "matrix-otf2-print-$tr" test "$got" = "$sent"
		# per pair: sender = the rank of the record's location, receiver = Receiver: (world rank)
		{ otf2-print -G "$dir/traces.otf2"; otf2-print "$dir/traces.otf2"; } 2>/dev/null | awk '
			$1 == "LOCATION_GROUP" && /Name: "MPI Rank [0-9]+"/ { match($0, /MPI Rank [0-9]+/); grank[$2] = substr($0, RSTART + 9, RLENGTH - 9) }
			$1 == "LOCATION" && /Group: / { g = $NF; gsub(/[<>]/, "", g); lgroup[$2] = g }
			($1 == "MPI_SEND" || $1 == "MPI_ISEND") {
				if ($0 !~ /Communicator: "MPI_COMM_WORLD"/) other = 1
				for (i = 4; i <= NF; i++) {
					if ($i == "Receiver:") dst = $(i + 1)
					if ($i == "Length:") len = $(i + 1)
				}
				b[grank[lgroup[$2]] " " dst] += len
			}
			END { if (other) print "other"; else for (k in b) print k, b[k] }' | sort >"$TMPD/p"
		if grep -q other "$TMPD/p"; then echo "skip matrix-pairs-$tr: sends on other communicators"
		else
			jq -r '.comm_matrix_bytes | to_entries[] | .key as $s | .value | to_entries[] | select(.value > 0) | "\($s) \(.key) \(.value)"' "$TMPD/j" | sort >"$TMPD/m"
			check "matrix-pairs-$tr" cmp -s "$TMPD/p" "$TMPD/m"
		fi
	fi
	okall=1
	for sz in 80x24 20x6 30x10 8x3; do
		"$BIN" render "$dir" --view matrix --size $sz >/dev/null 2>"$TMPD/err" || { okall=0; echo "  $sz: $(head -c 200 "$TMPD/err")"; }
	done
	check "matrix-sizes-$tr" test $okall = 1
done
if "$BIN" render "$TRACES/tracer-stencil4d-64p" --view matrix --size 80x24 --ascii | LC_ALL=C grep -q '[^ -~]'
then notok matrix-ascii-only; else ok matrix-ascii-only; fi
# above 4096 ranks the view says it does not draw instead of allocating 16 bytes per rank
# pair (65536 ranks: 64 GiB, the UI ended with "out of memory"); 4100 ranks here
GEN=$BUILD/bench/gen
if [ -x "$GEN" ] && "$GEN" -o "$TMPD/r4100" --ranks 4100 --iters 1 >/dev/null 2>&1; then
	"$BIN" render "$TMPD/r4100" --view matrix --size 80x10 >"$TMPD/m4100" 2>&1
	check matrix-too-many-ranks grep -q '4100 ranks: the matrix view draws up to 4096 ranks' "$TMPD/m4100"
else echo "skip matrix-too-many-ranks: no bench/gen"; fi
