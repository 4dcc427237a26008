#!/bin/sh
# --help, at the top and after every command: its usage on stdout, exit 0;
# a wrong option: the usage on stderr, exit 1.
. "$(dirname "$0")/../lib.sh"

"$BIN" --help >"$TMPD/out" 2>"$TMPD/err"
check top-help [ $? -eq 0 -a -s "$TMPD/out" -a ! -s "$TMPD/err" ]
check top-help-lists-commands grep -q "tracecomb report TRACE" "$TMPD/out"
for c in info report render remap tui prep; do
	for h in --help -h; do
		"$BIN" $c $h >"$TMPD/out" 2>"$TMPD/err"
		rc=$?
		if [ $rc -eq 0 ] && head -n 1 "$TMPD/out" | grep -q "^usage: tracecomb $c TRACE" && [ ! -s "$TMPD/err" ]; then
			ok "help-$c$h"
		else
			notok "help-$c$h" "rc=$rc $(head -c 200 "$TMPD/out" "$TMPD/err")"
		fi
	done
	"$BIN" $c some/trace --no-such-option >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	check "bad-option-$c" [ $rc -ne 0 -a ! -s "$TMPD/out" ]
done
