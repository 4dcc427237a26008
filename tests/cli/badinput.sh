#!/bin/sh
# Bad input never crashes: one clear line naming the file and the problem, exit 2.
. "$(dirname "$0")/../lib.sh"
src="$TRACES/pipit-ping-pong-2p"
[ -d "$src" ] || { echo "skip badinput: no traces at $TRACES"; exit 0; }

# expect NAME PATTERN PATH...: exit 2, one stderr line matching PATTERN, nothing on stdout
expect() {
	name=$1 pat=$2; shift 2
	"$BIN" info "$@" >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	lines=$(wc -l <"$TMPD/err")
	if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && grep -q -- "$pat" "$TMPD/err" && [ ! -s "$TMPD/out" ]; then
		ok "$name"
	else
		notok "$name" "rc=$rc lines=$lines: $(head -c 300 "$TMPD/err")"
	fi
}
before=$(ls -lR --time-style=+%s "$src" | md5sum)
fresh() { rm -rf "$TMPD/t"; cp -r "$src" "$TMPD/t"; }

expect no-such-path "nope: No such file or directory" "$TMPD/nope"
mkdir -p "$TMPD/empty-dir"
expect dir-without-anchor "no OTF2 anchor file" "$TMPD/empty-dir"
echo "hello" >"$TMPD/x.otf2"
expect not-otf2 "x.otf2: not an OTF2 anchor file" "$TMPD/x.otf2"
head -c 4096 /dev/urandom >"$TMPD/random.otf2"
expect random-bytes "random.otf2: not an OTF2 anchor file" "$TMPD/random.otf2"
: >"$TMPD/e.otf2"
expect empty-file "e.otf2: empty file" "$TMPD/e.otf2"
fresh; head -c 300 "$src/traces/0.evt" >"$TMPD/t/traces/0.evt"
expect truncated-evt "traces/0.evt: truncated" "$TMPD/t"
fresh; : >"$TMPD/t/traces/1.evt"
expect empty-evt "traces/1.evt: " "$TMPD/t"
fresh; rm "$TMPD/t/traces/1.evt"
expect missing-evt "traces/1.evt: missing event file" "$TMPD/t"
# a missing local .def loads what can be loaded, with one warning (issue 17, item 9)
fresh; rm "$TMPD/t/traces/0.def"
"$BIN" info "$TMPD/t" >"$TMPD/out" 2>"$TMPD/err"
check missing-local-def-warns test $? -eq 0 -a "$(grep -c 'warning .*no local definitions file (first: .*traces/0.def)' "$TMPD/out")" -eq 1
fresh; rm "$TMPD/t/traces.def"
expect missing-global-def "traces.def: missing global definitions file" "$TMPD/t"
fresh; head -c 200 "$src/traces.def" >"$TMPD/t/traces.def"
expect truncated-global-def "traces.def: " "$TMPD/t"
fresh; rm -r "$TMPD/t/traces"
expect missing-archive-dir "missing archive directory" "$TMPD/t"

# the original archive is untouched and nothing was written next to it
check trace-dir-untouched test "$(ls -lR --time-style=+%s "$src" | md5sum)" = "$before"
# usage errors exit 1
"$BIN" info >/dev/null 2>&1; check usage-exit-1 test $? -eq 1
"$BIN" frobnicate >/dev/null 2>&1; check unknown-command-exit-1 test $? -eq 1
"$BIN" info --threads 0 "$src" >/dev/null 2>&1; check bad-threads-exit-1 test $? -eq 1
