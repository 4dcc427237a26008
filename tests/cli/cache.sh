#!/bin/sh
# The analysis cache (docs/cache.md, issue 18 §1): prep then report --json from
# the cache equals report --json from the archive on every shared trace and a
# generated one (and up to 4 corpus traces when $BUILD/corpus exists;
# regions.seconds, a wall time, left out), and so do the wait-state and
# profile views drawn from the stored results; the default place
# under $XDG_CACHE_HOME (else ~/.cache), --no-cache, --cache FILE; stale after
# an .evt is touched and with other --opt; corrupt (bytes flipped, cut) said
# and the trace read, exit 0, the same output; an unwritable cache place: a
# warning, the commands still work; a write that fails leaves no file; the
# trace directory is never written; --help tells of prep, --no-cache, --cache.
. "$(dirname "$0")/../lib.sh"
[ -d "$TRACES" ] || { echo "skip cache: no traces at $TRACES"; exit 0; }
export XDG_CACHE_HOME="$TMPD/xdg"

# report --json without the one wall-time field (regions.seconds, depth 2)
rep() { "$BIN" report --json "$@" 2>"$TMPD/rep.err" | grep -v '^    "seconds": '; }
said() { grep -q "$1" "$TMPD/rep.err"; }

"$BIN" --help >"$TMPD/help"
check help-prep grep -q "tracecomb prep TRACE" "$TMPD/help"
check help-no-cache grep -q -- "--no-cache" "$TMPD/help"
check help-cache-file grep -q -- "--cache FILE" "$TMPD/help"

# every shared trace and a generated one: from the cache == from the archive
gen="$TMPD/gen"
"$BUILD/bench/gen" -o "$gen" --ranks 8 --iters 20 --pattern halo1d >/dev/null 2>&1 || gen=""
for dir in "$TRACES"/*/ $gen; do
	name=$(basename "$dir")
	if ! "$BIN" prep "$dir" >"$TMPD/prep.out" 2>"$TMPD/prep.err"; then
		notok "prep-$name" "$(cat "$TMPD/prep.err")"; continue
	fi
	rep "$dir" --no-cache >"$TMPD/a.json"
	rep "$dir" >"$TMPD/b.json"
	if said "^cache: .* used$" && cmp -s "$TMPD/a.json" "$TMPD/b.json"; then ok "report-json-same-$name"
	else notok "report-json-same-$name" "$(cat "$TMPD/rep.err")"; fi
	"$BIN" info --json --no-cache "$dir" >"$TMPD/a.info" 2>/dev/null
	"$BIN" info --json "$dir" >"$TMPD/b.info" 2>/dev/null
	check "info-json-same-$name" cmp -s "$TMPD/a.info" "$TMPD/b.info"
	# the views of the stored wait states (every wait, walked) and profile (its tables)
	for v in waitstates profile; do
		"$BIN" render "$dir" --view $v --size 120x40 --keys 'jjjj' --no-cache >"$TMPD/a.txt" 2>/dev/null
		"$BIN" render "$dir" --view $v --size 120x40 --keys 'jjjj' >"$TMPD/b.txt" 2>/dev/null
		check "render-$v-same-$name" cmp -s "$TMPD/a.txt" "$TMPD/b.txt"
	done
done
# a few planted-cause corpus traces when make corpus (or an earlier make check) wrote them
corpus=$(ls -d "$BUILD"/corpus/*/ 2>/dev/null | awk 'NR % 25 == 1' | head -n 4)
[ -n "$corpus" ] || echo "skip report-json-same-corpus: no $BUILD/corpus (make corpus)"
for dir in $corpus; do
	name=corpus-$(basename "$dir")
	"$BIN" prep "$dir" >/dev/null 2>&1 || { notok "prep-$name"; continue; }
	rep "$dir" --no-cache >"$TMPD/a.json"
	rep "$dir" >"$TMPD/b.json"
	if said "^cache: .* used$" && cmp -s "$TMPD/a.json" "$TMPD/b.json"; then ok "report-json-same-$name"
	else notok "report-json-same-$name" "$(cat "$TMPD/rep.err")"; fi
done
check default-place-xdg sh -c "ls '$XDG_CACHE_HOME'/tracecomb/*.tcc >/dev/null 2>&1"
check no-temp-files-left sh -c "! ls -a '$XDG_CACHE_HOME'/tracecomb | grep -q '^\.tracecomb-out'"

# a copy of one trace, to touch its files; its listing (names, sizes, mtimes) kept
arch="$TMPD/arch/late-sender"
mkdir -p "$TMPD/arch"
cp -rp "$TRACES/casita-late-sender-barrier-4p" "$arch"
listing() { find "$arch" -printf '%P %s %T@\n' | sort; }
listing >"$TMPD/list.before"
rep "$arch" --no-cache >"$TMPD/ref.json"
check no-cache-says-nothing [ ! -s "$TMPD/rep.err" ]
"$BIN" prep "$arch" >"$TMPD/prep.out"
check prep-says-where grep -q "^prep: wrote $XDG_CACHE_HOME/tracecomb/late-sender-.*\.tcc" "$TMPD/prep.out"
rep "$arch" >"$TMPD/b.json"
check auto-used sh -c "grep -q '^cache: .* used$' '$TMPD/rep.err' && cmp -s '$TMPD/ref.json' '$TMPD/b.json'"
rep "$arch" --no-cache >"$TMPD/b.json"
check no-cache-skips sh -c "[ ! -s '$TMPD/rep.err' ] && cmp -s '$TMPD/ref.json' '$TMPD/b.json'"

# stale: other options, then an .evt with another mtime
rep "$arch" --opt caller_merge=off >"$TMPD/b.json"
check stale-other-opt grep -qx "cache: stale (other options: cache (none), now caller_merge=off), reading the trace" "$TMPD/rep.err"
rep "$arch" --no-cache --opt caller_merge=off >"$TMPD/a.json"
check stale-opt-output-right cmp -s "$TMPD/a.json" "$TMPD/b.json"
rep "$arch" --limit 3 >/dev/null
check limit-not-stale said "^cache: .* used$"
evt=$(cd "$arch" && ls traces/*.evt | head -n 1)
touch -d "2001-02-03 04:05:06" "$arch/$evt"
listing >"$TMPD/list.before"   # the touch is the test's own change
rep "$arch" >"$TMPD/b.json"
rc=$?
check stale-evt-touched grep -qx "cache: stale ($evt changed), reading the trace" "$TMPD/rep.err"
check stale-evt-output-right sh -c "[ $rc -eq 0 ] && cmp -s '$TMPD/ref.json' '$TMPD/b.json'"

# --cache FILE: written with prep -o, read from there (the default place is stale)
"$BIN" prep "$arch" -o "$TMPD/named.tcc" >/dev/null
rep "$arch" --cache "$TMPD/named.tcc" >"$TMPD/b.json"
check cache-file-used sh -c "grep -qx 'cache: $TMPD/named.tcc used' '$TMPD/rep.err' && cmp -s '$TMPD/ref.json' '$TMPD/b.json'"
rep "$arch" --cache "$TMPD/none.tcc" >"$TMPD/b.json"
check cache-file-missing sh -c "grep -q '^cache: $TMPD/none.tcc: no such file' '$TMPD/rep.err' && cmp -s '$TMPD/ref.json' '$TMPD/b.json'"
"$BIN" prep "$arch" -o "$TMPD/named.tcc" >/dev/null
check prep-replaces-a-cache [ $? -eq 0 ]
echo "not a cache" >"$TMPD/other.txt"
"$BIN" prep "$arch" -o "$TMPD/other.txt" >/dev/null 2>&1
check prep-keeps-other-files sh -c "[ $? -eq 1 ] && grep -q 'not a cache' '$TMPD/other.txt'"
"$BIN" prep "$arch" -o "$arch/traces/x.tcc" >/dev/null 2>"$TMPD/err"
check prep-refuses-trace-dir sh -c "[ $? -eq 1 ] && grep -q 'refusing to write into the trace directory' '$TMPD/err'"

# corrupt: a byte flipped in the middle, then the file cut short: said, the trace read, exit 0
cp "$TMPD/named.tcc" "$TMPD/bad.tcc"
size=$(wc -c <"$TMPD/bad.tcc")
printf '\377' | dd of="$TMPD/bad.tcc" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
rep "$arch" --cache "$TMPD/bad.tcc" >"$TMPD/b.json"
rc=$?
check corrupt-flipped sh -c "grep -q '^cache: $TMPD/bad.tcc: corrupt (section .*: checksum mismatch), reading the trace$' '$TMPD/rep.err'"
check corrupt-flipped-output-right sh -c "[ $rc -eq 0 ] && cmp -s '$TMPD/ref.json' '$TMPD/b.json'"
head -c $((size - 100)) "$TMPD/named.tcc" >"$TMPD/cut.tcc"
rep "$arch" --cache "$TMPD/cut.tcc" >"$TMPD/b.json"
rc=$?
check corrupt-truncated grep -q "^cache: $TMPD/cut.tcc: corrupt (truncated" "$TMPD/rep.err"
check corrupt-truncated-output-right sh -c "[ $rc -eq 0 ] && cmp -s '$TMPD/ref.json' '$TMPD/b.json'"
"$BIN" render "$arch" --view logical --size 100x30 --cache "$TMPD/cut.tcc" >"$TMPD/a.txt" 2>/dev/null
"$BIN" render "$arch" --view logical --size 100x30 --no-cache >"$TMPD/b.txt"
check corrupt-render-right cmp -s "$TMPD/a.txt" "$TMPD/b.txt"
"$BIN" render "$arch" --view logical --size 100x30 --cache "$TMPD/named.tcc" >"$TMPD/a.txt" 2>/dev/null
check render-from-cache-same cmp -s "$TMPD/a.txt" "$TMPD/b.txt"

# no place for a cache (XDG_CACHE_HOME under a file): prep warns and writes nothing; the rest works
echo x >"$TMPD/afile"
XDG_CACHE_HOME="$TMPD/afile/cache" "$BIN" prep "$arch" >/dev/null 2>"$TMPD/err"
rc=$?
check unwritable-prep-warns sh -c "[ $rc -eq 4 ] && grep -q 'warning: cannot create the cache directory' '$TMPD/err'"
XDG_CACHE_HOME="$TMPD/afile/cache" rep "$arch" >"$TMPD/b.json"
check unwritable-report-works sh -c "[ ! -s '$TMPD/rep.err' ] && cmp -s '$TMPD/ref.json' '$TMPD/b.json'"
if [ "$(id -u)" -ne 0 ]; then
	mkdir -p "$TMPD/ro/tracecomb" && chmod 555 "$TMPD/ro/tracecomb"
	XDG_CACHE_HOME="$TMPD/ro" "$BIN" prep "$arch" >/dev/null 2>"$TMPD/err"
	check readonly-dir-prep-fails [ $? -eq 4 -a -s "$TMPD/err" ]
	chmod 755 "$TMPD/ro/tracecomb"
else
	echo "skip readonly-dir-prep-fails: root writes into a read-only directory"
fi
# HOME's ~/.cache when XDG_CACHE_HOME is unset
env -u XDG_CACHE_HOME HOME="$TMPD/home" "$BIN" prep "$arch" >/dev/null 2>&1
check home-cache-fallback sh -c "ls '$TMPD/home/.cache/tracecomb/'*.tcc >/dev/null 2>&1"

# a write that fails (file size limit, as a full disk): an error, no file, no temporary left
mkdir -p "$TMPD/small"
(trap '' XFSZ; ulimit -f 8; "$BIN" prep "$arch" -o "$TMPD/small/c.tcc" >/dev/null 2>"$TMPD/err")
rc=$?
check failed-write-exit-4 sh -c "[ $rc -eq 4 ] && grep -q 'write failed: File too large' '$TMPD/err'"
check failed-write-no-file sh -c "[ -z \"\$(ls -A '$TMPD/small')\" ]"

# the trace directory was never written
listing >"$TMPD/list.after"
check trace-dir-untouched cmp -s "$TMPD/list.before" "$TMPD/list.after"
