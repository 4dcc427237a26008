#!/bin/sh
# Runs every test and ends with one line CI reads: "N passed, N failed".
#  - unit tests: $BUILD/tests/test_* (cmocka); each case counts once.
#  - script tests: tests/cli/*.sh, tests/ui/*.sh; each prints "ok NAME" or
#    "not ok NAME" (or "skip NAME: why") per case.
# Environment: BUILD (build dir), BIN (tracecomb binary), TRACES (shared traces).
BUILD=${BUILD:-build}
BIN=${BIN:-./tracecomb}
case $BIN in /*) ;; */*) BIN=$(pwd)/$BIN ;; *) BIN=$(pwd)/$BIN ;; esac
# the shared traces sit in shared/ beside the clone (or beside a parent of a worktree)
if [ -z "$TRACES" ]; then
	d=$(cd "$(dirname "$0")/.." && pwd)
	while [ "$d" != / ] && [ ! -d "$d/../shared/traces" ]; do d=$(dirname "$d"); done
	TRACES=$(cd "$d/../shared/traces" 2>/dev/null && pwd)
fi
export BUILD BIN TRACES
# the tests never see (or write) the user's analysis caches (docs/cache.md):
# a cache left by `tracecomb prep` would add a "cache: ... used" line to
# their output; tests of the cache set their own place
XDG_CACHE_HOME=$(mktemp -d)
export XDG_CACHE_HOME
pass=0; fail=0; skip=0
log=$(mktemp)
for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	CMOCKA_MESSAGE_OUTPUT=stdout "$t" >"$log" 2>&1
	rc=$?
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	p=${p:-0}; f=${f:-0}
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	pass=$((pass + p)); fail=$((fail + f))
	if [ "$f" -ne 0 ]; then
		echo "FAIL $(basename "$t"):"; grep -E 'FAILED|ERROR|error|Assert|failure' "$log" | head -n 20
	else
		echo "ok   $(basename "$t") ($p)"
	fi
done
for s in tests/cli/*.sh tests/ui/*.sh; do
	[ -f "$s" ] || continue
	sh "$s" >"$log" 2>&1
	rc=$?
	p=$(grep -c '^ok ' "$log"); f=$(grep -c '^not ok ' "$log"); k=$(grep -c '^skip ' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "  (exit $rc)" >>"$log"; fi
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + k))
	# the failures first: a script's passing comment lines ("# ok ...", the
	# corpus prints one per case) must not crowd them out of the 40 lines
	if [ "$f" -ne 0 ]; then echo "FAIL $s:"
		{ grep -E '^not ok |^  \(exit ' "$log"; grep -v -E '^ok |^not ok |^# ok |^  \(exit ' "$log"; } | head -n 40
	else echo "ok   $s ($p)"; grep '^skip ' "$log"; fi
done
rm -f "$log"; rm -rf "$XDG_CACHE_HOME"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
