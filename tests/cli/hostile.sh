#!/bin/sh
# Hostile and unlucky input (issue 17): archives patched byte by byte from a
# shared trace, option and theme abuse, output faults, and the documented exit
# codes (README.md, "Exit codes": 0 ok, 1 usage, 2 trace unreadable, 3 out of
# memory, 4 output cannot be written).  Each patch is the one-line
# reproduction of a defect; the same archives, packed, are the reader fuzz
# target's regression inputs (tests/fuzz/regress/reader/).
. "$(dirname "$0")/../lib.sh"
src="$TRACES/pipit-ping-pong-2p"
[ -d "$src" ] || { echo "skip hostile: no traces at $TRACES"; exit 0; }

# run NAME CMD...: CMD's stdout, stderr and exit code in $TMPD/NAME.{out,err,rc}
run() { n=$1; shift; "$@" >"$TMPD/$n.out" 2>"$TMPD/$n.err"; echo $? >"$TMPD/$n.rc"; }
rc_is() { test "$(cat "$TMPD/$1.rc")" = "$2"; }
err_has() { grep -q -- "$2" "$TMPD/$1.err"; }
fresh() { rm -rf "$TMPD/$1"; cp -r "$src" "$TMPD/$1"; chmod -R u+w "$TMPD/$1"; }
# poke FILE OFFSET OCTAL-BYTES: overwrite bytes in place
poke() { printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }
# splice FILE OFFSET NDROP OCTAL-BYTES: replace NDROP bytes at OFFSET (the length may change)
splice() {
	{ head -c "$2" "$1"; printf "$4"; tail -c +$(($2 + $3 + 1)) "$1"; } >"$1.new" && mv "$1.new" "$1"
}
# under LIMIT-KB of address space and 10 s of CPU time
limited() { (ulimit -v "$1" && ulimit -t 10 && shift && exec "$@"); }

# --- 1. an Enter naming an undefined region (region ref 3 -> 239 in 0.evt) ---------
fresh r; poke "$TMPD/r/traces/0.evt" 53 '\357'
for v in waitstates verdicts dag; do
	run r-$v "$BIN" render "$TMPD/r" --view $v --size 100x30
	check undefined-region-render-$v rc_is r-$v 0
done
run r-report "$BIN" report "$TMPD/r" --json
check undefined-region-report rc_is r-report 0
check undefined-region-warned-once test "$(grep -c 'name a region that is not defined' "$TMPD/r-report.out")" -eq 1

# --- 2. remap -o: symlinks, existing files, directories, archive dirs, unwritable places --
fresh m; cp "$TMPD/m/traces.def" "$TMPD/def.orig"
ln -s "$TMPD/m/traces.def" "$TMPD/link"
run o-link "$BIN" remap "$TMPD/m" -o "$TMPD/link"
check remap-symlink-refused sh -c "rc_is() { test \"\$(cat '$TMPD/o-link.rc')\" = 1; }; rc_is && cmp -s '$TMPD/m/traces.def' '$TMPD/def.orig'"
check remap-symlink-message err_has o-link "symbolic link"
run o-link-force "$BIN" remap "$TMPD/m" -o "$TMPD/link" --force
check remap-symlink-refused-with-force test "$(cat "$TMPD/o-link-force.rc")" = 1 -a -L "$TMPD/link"
check remap-symlink-target-untouched cmp -s "$TMPD/m/traces.def" "$TMPD/def.orig"
echo keep >"$TMPD/exists"
run o-exists "$BIN" remap "$TMPD/m" -o "$TMPD/exists"
check remap-existing-refused test "$(cat "$TMPD/o-exists.rc")" = 1 -a "$(cat "$TMPD/exists")" = keep
check remap-existing-message err_has o-exists "exists (use --force"
run o-force "$BIN" remap "$TMPD/m" -o "$TMPD/exists" --force
check remap-force-replaces test "$(cat "$TMPD/o-force.rc")" = 0 -a "$(grep -c '^rank ' "$TMPD/exists")" -eq 2
mkdir "$TMPD/adir"
run o-dir "$BIN" remap "$TMPD/m" -o "$TMPD/adir"
check remap-directory-refused rc_is o-dir 1
check remap-directory-message err_has o-dir "is a directory"
fresh other
run o-archive "$BIN" remap "$TMPD/m" -o "$TMPD/other/traces/rankfile"
check remap-other-archive-refused test "$(cat "$TMPD/o-archive.rc")" = 1 -a ! -e "$TMPD/other/traces/rankfile"
run o-proc "$BIN" remap "$TMPD/m" -o /proc/self/rankfile
check remap-unwritable-exit-4 rc_is o-proc 4
check remap-unwritable-errno err_has o-proc "/proc/self/rankfile: cannot create: "
run o-nodir "$BIN" remap "$TMPD/m" -o "$TMPD/no/such/dir/f"
check remap-missing-dir-errno sh -c "grep -q 'No such file or directory' '$TMPD/o-nodir.err' && test \"\$(cat '$TMPD/o-nodir.rc')\" = 4"
check remap-no-temp-left test -z "$(ls -A "$TMPD" | grep tracecomb-out)"

# --- 4. output errors: a full disk, a closed stdout ------------------------------------
for c in "info" "report --section profile" "render --view physical --size 80x20" "remap"; do
	name=$(echo "$c" | cut -d' ' -f1)
	$BIN $c "$src" >/dev/full 2>"$TMPD/full.err"; rc=$?
	check "$name-dev-full-exit-4" test $rc -eq 4
	check "$name-dev-full-message" grep -q "cannot write standard output: No space left on device" "$TMPD/full.err"
	$BIN $c "$src" >&- 2>"$TMPD/closed.err"; rc=$?
	check "$name-closed-stdout-exit-4" test $rc -eq 4
	check "$name-closed-stdout-message" grep -q "standard output is closed" "$TMPD/closed.err"
done
$BIN --help >/dev/full 2>/dev/null; check help-dev-full-exit-4 test $? -eq 4

# --- 5. a declared event count the event file cannot hold (2^34 events, 884 bytes) -----
fresh big; splice "$TMPD/big/traces.def" 5720 9 '\016\013\000\001\014\001\005\000\000\000\000\004\000'
run big limited 2000000 "$BIN" info "$TMPD/big"
check implausible-events-exit-2 rc_is big 2
check implausible-events-message err_has big "implausible trace: 17179869184 events defined for location 0 in a 884-byte event file"

# --- 6. amplification: refs near the ref limit, a chunk size of 4 TiB in the anchor ----
fresh refs; splice "$TMPD/refs/traces.def" 8254 4 '\017\022\004\230\354\372\002'
run refs limited 1048576 "$BIN" report "$TMPD/refs" --json
check huge-refs-bounded rc_is refs 0
check huge-refs-warned grep -q "definitions with implausible refs (up to 49999000" "$TMPD/refs.out"
# the same in a tiny archive: bench/gen's smallest, its 746-byte traces.def with
# region 10 given ref 49,999,000 (749 bytes; the issue's case was a 781-byte file)
# find_bytes FILE "HEX HEX ...": offset of the first occurrence, or nothing
find_bytes() {
	od -An -v -tx1 "$1" | tr -s ' \n' '\n\n' | grep -v '^$' | awk -v pat="$2" '
		BEGIN { n = split(pat, p, " ") } { b[NR - 1] = $1 }
		END { for (i = 0; i + n <= NR; i++) { for (j = 1; j <= n && b[i + j - 1] == p[j]; j++); if (j > n) { print i; exit } } }'
}
"$BUILD/bench/gen" -o "$TMPD/tiny" --ranks 4 --iters 1 --allreduce-every 0 --ranks-per-node 2 --pattern ring --groups 2 >/dev/null 2>&1
at=$(find_bytes "$TMPD/tiny/traces.def" "0f 0f 01 0a")
if [ -n "$at" ]; then
	splice "$TMPD/tiny/traces.def" "$at" 4 '\017\022\004\230\354\372\002'
	check tiny-def-under-1k test "$(wc -c <"$TMPD/tiny/traces.def")" -lt 1024
	run tiny limited 1048576 timeout 10 "$BIN" report "$TMPD/tiny" --json
	check tiny-def-huge-ref-bounded rc_is tiny 0
	check tiny-def-huge-ref-warned grep -q "definitions with implausible refs (up to 49999000" "$TMPD/tiny.out"
else
	notok tiny-def-huge-ref-bounded "no region record 10 in bench/gen's traces.def"
fi
fresh chunk; poke "$TMPD/chunk/traces.otf2" 12 '\000\000\000\000\000\004\000\000'
run chunk limited 1048576 "$BIN" info "$TMPD/chunk"
check huge-chunk-exit-2 rc_is chunk 2
check huge-chunk-message err_has chunk "implausible anchor: chunk sizes 4398046511104"
# the anchor's location and definition counts set to 2^64-1 (found by the reader fuzzer)
fresh cnt; poke "$TMPD/cnt/traces.otf2" 33 '\377\377\377\377\377\377\377\377\377\377\377\377\377'
run cnt limited 1048576 "$BIN" info "$TMPD/cnt"
check huge-anchor-counts-exit-2 rc_is cnt 2
check huge-anchor-counts-message err_has cnt "traces.def: truncated or implausible: the anchor promises .* locations and 18446744073709551615 global definitions"
# the property count libotf2 allocates 16 bytes per before reading any: one changed
# byte (the creator string swallows the description's NUL, the count is read from
# the first property's name: 1.4 G, 22 GB; found by the reader fuzzer), and two
# changed bytes in the 253-byte anchor of a Score-P 1.3 trace (1.2 G)
fresh prop; poke "$TMPD/prop/traces.otf2" 58 '\017'
run prop limited 1048576 "$BIN" info "$TMPD/prop"
check huge-anchor-properties-exit-2 rc_is prop 2
check huge-anchor-properties-message err_has prop "traces.otf2: implausible anchor: 1414463488 properties in the 217 bytes left of a 283-byte file"
rm -rf "$TMPD/prop2"; cp -r "$TRACES/casita-late-sender-barrier-4p" "$TMPD/prop2"; chmod -R u+w "$TMPD/prop2"
poke "$TMPD/prop2/traces.otf2" 64 '\017\005'
run prop2 limited 1048576 "$BIN" info "$TMPD/prop2"
check huge-anchor-properties-253-exit-2 rc_is prop2 2
check huge-anchor-properties-253-message err_has prop2 "implausible anchor: 1179930368 properties in the 180 bytes left of a 253-byte file"
# a ProgramBegin record declaring 2^31 arguments (one byte: byte 42 of rank 3's
# 267-byte event file): libotf2 asks malloc for 8 GB before it reads any (found
# by the reader fuzzer, session 6).  Under 1 GiB of address space the malloc fails
# and the load stops cleanly; without a limit the memory is reserved, never
# touched: exit 2 either way, a few MB resident
rm -rf "$TMPD/pa"; cp -r "$TRACES/sstelements-ember-bcast-4p" "$TMPD/pa"; chmod -R u+w "$TMPD/pa"
poke "$TMPD/pa/traces/3.evt" 42 '\004'
run pa limited 1048576 "$BIN" info "$TMPD/pa"
check program-args-8G-limited-exit-2 rc_is pa 2
check program-args-8G-limited-message err_has pa "3.evt: truncated or corrupt event file after 0 events (MEM_FAULT"
command -v /usr/bin/time >/dev/null && {
	/usr/bin/time -f %M -o "$TMPD/pa.rss" "$BIN" info "$TMPD/pa" >/dev/null 2>"$TMPD/pa2.err"; echo $? >"$TMPD/pa2.rc"
	check program-args-8G-unlimited-exit-2 rc_is pa2 2
	check program-args-8G-unlimited-rss-under-64M test "$(tail -n 1 "$TMPD/pa.rss")" -lt 65536
}
# every amplification case, every command: under 1 GiB (ulimit -v) and 10 s (of CPU
# time, ulimit -t, and of wall time, timeout): exit 0 or 2, never 3 (out of memory)
# nor a signal nor timeout's 124
for d in refs tiny chunk cnt prop prop2 big r pa; do
	for c in "info" "report --json" "remap" "render --view dag --size 80x20" "render --view verdicts --size 80x20"; do
		limited 1048576 timeout 10 "$BIN" $c "$TMPD/$d" >/dev/null 2>&1; rc=$?
		check "bounded-$d-$(echo "$c" | cut -d' ' -f1,3 | tr ' ' -)" test $rc -le 2
	done
done

# --- 7. duplicate location ids (location 1 defined as 0 again): one warning, deterministic --
fresh dup; poke "$TMPD/dup/traces.def" 5732 '\000'
# (but for the wall-clock "seconds" of the load phases)
for i in 1 2 3 4 5; do
	"$BIN" report "$TMPD/dup" --json --threads 2 2>&1 | grep -v '"seconds"' >"$TMPD/dup.$i"; echo $? >>"$TMPD/dup.rcs"
done
check duplicate-locations-exit-0 test "$(sort -u "$TMPD/dup.rcs")" = 0
check duplicate-locations-deterministic sh -c "for i in 2 3 4 5; do cmp -s '$TMPD/dup.1' '$TMPD/dup.'\$i || exit 1; done"
check duplicate-locations-warned-once test "$(grep -c 'duplicate location definitions (first: location 0)' "$TMPD/dup.1")" -eq 1

# --- 8. invalid UTF-8 and terminal controls in names ("int " -> ff 1b '[H') -------------
fresh u; poke "$TMPD/u/traces.def" 476 '\377\033[H'
run u-json "$BIN" report "$TMPD/u" --json
check invalid-utf8-json-valid sh -c "iconv -f UTF-8 -t UTF-8 '$TMPD/u-json.out' >/dev/null"
check invalid-utf8-json-escaped grep -q '\\\\xff\\\\x1b\[Hmain' "$TMPD/u-json.out"
for c in info "report --section profile"; do
	"$BIN" $c "$TMPD/u" >"$TMPD/u-text" 2>&1
	check "no-escape-in-$(echo "$c" | cut -d' ' -f1)" sh -c "! grep -q \"\$(printf '\\033')\" '$TMPD/u-text'"
done

# --- 9. a location without events and without .evt; an unusable local .def ---------------
fresh z; poke "$TMPD/z/traces.def" 5737 '\000'; rm "$TMPD/z/traces/1.evt"
run z "$BIN" info "$TMPD/z"
check zero-event-location-loads rc_is z 0
fresh ld; rm "$TMPD/ld/traces/0.def"; mkdir "$TMPD/ld/traces/0.def"
run ld "$BIN" info "$TMPD/ld"
check unusable-local-def-warned sh -c "test \"\$(cat '$TMPD/ld.rc')\" = 0 && grep -q 'no local definitions file (first: .*0.def)' '$TMPD/ld.out'"
# a local .def that cannot be read (EIO): warned with errno's text (whichever reader thread met it), not skipped silently
fresh ud; ln -sf /proc/self/mem "$TMPD/ud/traces/1.def"
run ud "$BIN" info "$TMPD/ud"
check unreadable-local-def-warned sh -c "test \"\$(cat '$TMPD/ud.rc')\" = 0 && grep -q 'local definitions files cannot be read (first: .*1.def: Input/output error' '$TMPD/ud.out'"
# an event file that cannot be read (EIO): errno's text, not its number ("(5: ...")
fresh ev; poke "$TMPD/ev/traces.def" 5737 '\000'; ln -sf /proc/self/mem "$TMPD/ev/traces/1.evt"
run ev "$BIN" info "$TMPD/ev"
check otf2-errno-as-text sh -c "grep -q 'Input/output error' '$TMPD/ev.err' && ! grep -q '([0-9][0-9]*: ' '$TMPD/ev.err'"

# --- 10. --opt and --theme ------------------------------------------------------------------
run opt-unknown "$BIN" report "$src" --opt no_such_key=1
check opt-unknown-exit-1 rc_is opt-unknown 1
check opt-unknown-lists-valid err_has opt-unknown "unknown option; valid: coalesce_isends, "
for kv in region_depth=7 region_damping=1 windows=-1 windows=1e9 latency_high=nan cluster_k=0 \
	region_threshold=inf latency_bucket_bytes=0.5 caller_merge=maybe region_weight=heavy cluster_seed=-1 windows; do
	run opt-bad "$BIN" report "$src" --opt "$kv" --section info
	check "opt-refused-$kv" sh -c "test \"\$(cat '$TMPD/opt-bad.rc')\" = 1 && grep -q -- '--opt ' '$TMPD/opt-bad.err'"
done
run opt-good "$BIN" report "$src" --opt region_depth=2 --opt caller_merge=on --opt cluster_seed=0x10 --section info
check opt-valid-accepted rc_is opt-good 0
mkfifo "$TMPD/fifo.yaml"
run fifo timeout 5 "$BIN" render "$src" --view physical --size 80x20 --theme "$TMPD/fifo.yaml"
check theme-fifo-does-not-block sh -c "test \"\$(cat '$TMPD/fifo.rc')\" = 0 && grep -q 'fifo.yaml: not a regular file' '$TMPD/fifo.err'"
i=0; : >"$TMPD/deep.yaml"
while [ $i -lt 100 ]; do printf '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[' >>"$TMPD/deep.yaml"; i=$((i + 1)); done
run deep limited 1048576 "$BIN" render "$src" --view physical --size 80x20 --theme "$TMPD/deep.yaml"
check theme-deep-yaml-refused sh -c "test \"\$(cat '$TMPD/deep.rc')\" = 0 && grep -q 'nested deeper than 16 levels' '$TMPD/deep.err'"

# --- exit codes: every documented one is reached -----------------------------------------
"$BIN" info >/dev/null 2>&1; check exit-1-usage test $? -eq 1
"$BIN" info "$TMPD/nope" >/dev/null 2>&1; check exit-2-unreadable test $? -eq 2
# out of memory: address-space limits from barely enough for the libraries up to
# enough; where the tool's own allocation fails first it is exit 3 with one line;
# wherever it fails, never a crash (only 0, 2 or 3)
oom=0 other=0 kb=10000
while [ $kb -le 40000 ]; do
	limited $kb "$BIN" report "$TRACES/casita-jacobi-mpi-omp-cuda-cpu015-2p" >/dev/null 2>"$TMPD/oom.err"; rc=$?
	if [ $rc -eq 3 ] && grep -q "^tracecomb: out of memory (allocating [0-9]* bytes)$" "$TMPD/oom.err"; then oom=$((oom + 1))
	elif [ $rc -ne 0 ] && [ $rc -ne 2 ] && [ $rc -ne 127 ]; then other=$((other + 1)); fi
	kb=$((kb + 1000))
done
check exit-3-out-of-memory test $oom -ge 1
check exit-3-no-crash-under-limits test $other -eq 0
"$BIN" info "$src" >/dev/full 2>/dev/null; check exit-4-output test $? -eq 4
"$BIN" --help | grep -q "3 out of memory; 4 the output cannot be written"; check help-documents-exit-codes test $? -eq 0
