#!/bin/sh
# The UI opened from the analysis cache (docs/cache.md): after `tracecomb prep`
# the status line says the cache was used; a stale one (an .evt touched) says
# why and the trace is read; --no-cache says nothing of a cache; a corrupt one
# is said and the trace read.  Each time the first frame is the logical view.
NAME=cache
. "$(dirname "$0")/../support/tmux.sh"
X="XDG_CACHE_HOME=$tmp/xdg"
cp -rp "$ST" "$tmp/st"
XDG_CACHE_HOME="$tmp/xdg" "$BIN" prep "$tmp/st" >/dev/null 2>&1 || echo "not ok cache-prep"

start 200 30 "$UTF $X" "$tmp/st"
check cache-used-status "cache: $tmp/xdg/tracecomb/st-"
check cache-used-says-used ".tcc used"
check cache-used-logical "logical |"
keys q

start 200 30 "$UTF $X" "--no-cache $tmp/st"
check no-cache-logical "logical |"
check_not no-cache-silent "cache:"
keys q

f=$(ls "$tmp"/xdg/tracecomb/*.tcc)
size=$(wc -c <"$f")
printf '\377' | dd of="$f" bs=1 seek=$((size / 3)) conv=notrunc 2>/dev/null
start 200 30 "$UTF $X" "$tmp/st"
check corrupt-status "cache: corrupt (section"
check corrupt-logical "logical |"
keys q

evt=$(cd "$tmp/st" && ls traces/*.evt | head -n 1)
XDG_CACHE_HOME="$tmp/xdg" "$BIN" prep "$tmp/st" >/dev/null 2>&1
touch -d "2001-02-03 04:05:06" "$tmp/st/$evt"
start 200 30 "$UTF $X" "$tmp/st"
check stale-status "cache: stale ($evt changed), reading the trace"
check stale-logical "logical |"
keys q
