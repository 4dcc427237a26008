#!/bin/sh
# Issue 14 items that `render` shows (regression guards; tests/ui/newcomer.sh drives
# the same in tmux): 64 ranks at 20x6 still say "rank 0/63"; render never prints an
# interactive hint ("press ..."); the cursor mark on an axis never replaces a digit
# (the axis digits are the same wherever the cursor is); the wait states list
# patterns and causing ranks by size and name the selected pattern.
NAME=render-newcomer
. tests/support/render.sh
tmp=$(mktemp)
S64=$TRACES/tracer-stencil4d-64p
"$BIN" render "$S64" --view logical --size 20x6 >"$tmp" 2>&1
head -n 1 "$tmp" | grep -q 'rank 0/63' && echo "ok newcomer-title-20x6" || { echo "not ok newcomer-title-20x6"; head -n 1 "$tmp"; }
bad=""
for v in logical physical overview regions evolution waitstates profile verdicts clusters calls dag matrix detail; do
	"$BIN" render "$S64" --view $v --size 80x24 2>&1 | grep -qi 'press ' && bad="$bad $v"
done
[ -z "$bad" ] && echo "ok newcomer-render-no-hints" || echo "not ok newcomer-render-no-hints:$bad"
for v in logical physical overview; do
	ref=""; same=1
	for s in 0 2 5 10 20 38; do
		case $v in overview) ln=9 h=10 ;; *) ln=2 h=8 ;; esac
		d=$("$BIN" render "$S64" --view $v --size 80x$h --step $s | sed -n ${ln}p | sed 's/[^0-9.]/ /g; s/ *$//')
		[ -z "$ref" ] && ref=$d
		[ "$d" = "$ref" ] || { same=0; echo "  $v step $s: '$d' vs '$ref'"; }
	done
	[ $same = 1 ] && echo "ok newcomer-axis-digits-$v" || echo "not ok newcomer-axis-digits-$v"
done
"$BIN" render "$S64" --view waitstates --size 100x30 >"$tmp" 2>&1
python3 - "$tmp" <<'PY' && echo "ok newcomer-waitstates-sorted" || echo "not ok newcomer-waitstates-sorted"
import re, sys
L = open(sys.argv[1], encoding="utf-8").read().split("\n")
unit = {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}
def col(lines):
    return [float(m.group(1)) * unit[m.group(2)] for l in lines for m in [re.search(r"\s([0-9.]+) (s|ms|us|ns)\s", l)] if m]
pat = col([l for l in L if re.match(r"^  [a-z_]+ ", l) and not l.startswith("  rank ")])
ranks = col([l for l in L if re.match(r"^  rank \d+ ", l)])
assert len(pat) >= 2 and pat == sorted(pat, reverse=True), pat
assert len(ranks) >= 2 and ranks == sorted(ranks, reverse=True), ranks
assert any(l.startswith("selected: ") for l in L)
PY
rm -f "$tmp"
