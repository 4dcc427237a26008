#!/bin/sh
# mpi.sh — tracecomb-mpi (docs/scale.md).  For P = 1..4 processes every
# process's part of the model equals the same ranks of the serial model
# (`tracecomb dump-model --parts P`, canonical text, byte for byte) on every
# shared trace, on bench/gen traces (non-blocking, MPI_ANY_SOURCE, Allreduce,
# unique tags) and on contrib mini-app traces (sub-communicators,
# ANY_SOURCE, collective-only), exchanges in small rounds, and so do the
# profile and wait states replayed over the parts (bit for bit, and as the
# report's JSON); the parts cover every rank, message, instance and member
# once; the cache file the P processes write together (prep -o) is used by
# `tracecomb report --json` and `render` with the logical steps it stores
# (none computed on open: the opener's note says "used" and nothing else),
# and gives exactly the archive's output (regions.seconds, a wall time, left
# out), also with sections of several chunks that straddle two processes'
# bytes; over --steps-bound the steps are not stored, prep, the cache and
# the opener say so, and the outputs are the same; the file itself is the
# serial prep's but for the load times and checksums; --opt goes into the
# cache as prep's (the steps made with it); prep -o writes that one
# file, replaces a cache file, refuses another existing FILE without --force;
# without -o it writes the default place, where `tracecomb TRACE` finds it,
# and a place that cannot be made ends with one message and exit 4;
# a process that cannot read
# its share ends every process with one message, exit 2 and no output.
# Prints "ok NAME", "not ok NAME: why" or "skip NAME: why" per case.
. "$(dirname "$0")/../lib.sh"
MPI_BIN=$BUILD/tracecomb-mpi

if ! command -v mpicc >/dev/null 2>&1 || ! command -v mpirun >/dev/null 2>&1; then
	echo "skip mpi: MPI not installed (apt-get install openmpi-bin libopenmpi-dev)"; exit 0
fi
if [ ! -x "$MPI_BIN" ]; then echo "skip mpi: $MPI_BIN not built (make mpi)"; exit 0; fi
ROOT=""
[ "$(id -u)" -eq 0 ] && ROOT="--allow-run-as-root"
MPIRUN="mpirun $ROOT --oversubscribe --bind-to none --mca btl self,vader ${MPIRUN_FLAGS:-}"
if ! timeout 60 $MPIRUN -np 2 true >"$TMPD/probe" 2>&1; then
	echo "skip mpi: mpirun cannot start processes here: $(head -n 1 "$TMPD/probe")"; exit 0
fi

# report --json without the one wall-time field (regions.seconds), as cache.sh
rep() { "$BIN" report --json "$@" 2>"$TMPD/rep.err" | grep -v '^    "seconds": '; }

# cached NAME P TRACE FILE [NOTE]: the cache FILE written by tracecomb-mpi is
# used with its logical steps (the note exactly "cache: FILE used": the steps
# were stored, none computed), or with NOTE's reason when they were not; and
# gives the archive's report --json and logical frame, byte for byte
cached() {
	rep "$3" --cache "$4" >"$TMPD/rc.json"
	if ! grep -qx "cache: $4 used${5:+ ($5: computed when needed)}" "$TMPD/rep.err"; then
		notok "$1 cache P=$2" "not used${5:+ as expected}: $(head -n 1 "$TMPD/rep.err")"; return
	fi
	"$BIN" render "$3" --view logical --size 120x36 --cache "$4" >"$TMPD/rc.txt" 2>/dev/null
	if cmp -s "$TMPD/rc.json" "$TMPD/ra.json" && cmp -s "$TMPD/rc.txt" "$TMPD/ra.txt"; then ok "$1 cache P=$2"
	else notok "$1 cache P=$2" "report or render differs: $(diff "$TMPD/ra.json" "$TMPD/rc.json" | head -n 3 | tr '\n' ' ')"; fi
}

# samefile NAME P SERIAL FILE: the cache FILE tracecomb-mpi wrote is, byte for
# byte, the one `tracecomb prep` wrote (SERIAL) but for the wall-clock load
# times in struct tc_trace (its section, CS_TRACE) and the checksums that
# cover them (the header's last two words, the table from sums_off): the
# same model, span, steps, summary and results, laid out alike.  Offsets from
# src/cache/format.h (format 6, 28 sections): sec[s] = {off, size, chunk0} at
# 56 + 24 s, CS_TRACE = 26, sums_off at 728, the header's checksums at 744..759.
samefile() {
	u8() { od -An -t u8 -j "$1" -N 8 "$2" | tr -d ' '; }
	a=$(u8 $((56 + 26 * 24)) "$4"); z=$((a + $(u8 $((56 + 26 * 24 + 8)) "$4"))); sums=$(u8 728 "$4")
	if [ "$(wc -c <"$3")" != "$(wc -c <"$4")" ]; then notok "$1 file P=$2" "size $(wc -c <"$4"), prep's $(wc -c <"$3")"; return; fi
	at=$(cmp -l "$3" "$4" | awk -v a="$a" -v z="$z" -v s="$sums" \
		'{ o = $1 - 1; if (!((o >= 744 && o < 760) || (o >= a && o < z) || o >= s)) { print o; exit } }')
	if [ -z "$at" ]; then ok "$1 file P=$2"; else notok "$1 file P=$2" "differs from prep's at byte $at"; fi
}

# same NAME TRACE: for P = 1..4 the MPI parts equal the serial ones (rounds of
# 4 KiB but for P = 1, the default), the profile and wait states replayed
# over them equal the serial ones: bit for bit (replay.txt of --dump, doubles
# in hexadecimal, beside the parts) and as `report --json --section
# profile,waitstates` (--replay), and the cache file they write together is
# the archive's to every report and frame
same() {
	name=$1; trace=$2
	if ! "$BIN" report "$trace" --no-cache --json --section profile,waitstates >"$TMPD/serial.json" 2>"$TMPD/log"; then
		notok "$name replay" "serial report: $(head -n 1 "$TMPD/log")"; return
	fi
	rep "$trace" --no-cache >"$TMPD/ra.json"
	"$BIN" render "$trace" --view logical --size 120x36 --no-cache >"$TMPD/ra.txt" 2>/dev/null
	"$BIN" prep "$trace" -o "$TMPD/serial.tcc" >/dev/null 2>&1 || notok "$name prep" "serial prep failed"
	for P in 1 2 3 4; do
		s=$TMPD/s$P; m=$TMPD/m$P
		rm -rf "$s" "$m" "$TMPD/c.tcc"; mkdir -p "$s" "$m"
		if ! "$BIN" dump-model "$trace" --parts $P --out "$s" >"$TMPD/log" 2>&1; then
			notok "$name P=$P" "serial dump: $(head -n 1 "$TMPD/log")"; continue
		fi
		rb=4096; [ $P = 1 ] && rb=""
		if ! TC_MPI_ROUND_BYTES=$rb timeout 300 $MPIRUN -x TC_MPI_ROUND_BYTES -np $P "$MPI_BIN" prep "$trace" \
			--dump "$m" --replay "$TMPD/replay.json" -o "$TMPD/c.tcc" >"$TMPD/log" 2>&1; then
			notok "$name P=$P" "tracecomb-mpi: $(grep -v '^ *$' "$TMPD/log" | head -n 2 | tr '\n' ' ')"; continue
		fi
		if diff -r "$s" "$m" >"$TMPD/diff" 2>&1; then ok "$name P=$P"
		else notok "$name P=$P" "parts differ: $(head -n 4 "$TMPD/diff" | tr '\n' ' ')"; fi
		if cmp -s "$TMPD/serial.json" "$TMPD/replay.json"; then ok "$name P=$P replay"
		else notok "$name P=$P replay" "$(diff "$TMPD/serial.json" "$TMPD/replay.json" | head -n 4 | tr '\n' ' ')"; fi
		cached "$name" $P "$trace" "$TMPD/c.tcc"
		samefile "$name" $P "$TMPD/serial.tcc" "$TMPD/c.tcc"
	done
	covered "$name" "$TMPD/s4"
}

# covered NAME DIR: the parts hold every rank, message, instance and member once
covered() {
	tot=$(sed -n 's/^totals msgs=\([0-9]*\) colls=\([0-9]*\) members=\([0-9]*\) .*/\1 \2 \3/p' "$2/part-0.txt")
	ranks=$(sed -n 's/^counts ranks=\([0-9]*\) .*/\1/p' "$2/part-0.txt")
	got="$(cat "$2"/part-*.txt | grep -c '^msg ') $(cat "$2"/part-*.txt | grep -c '^coll ') $(cat "$2"/part-*.txt | grep -c '^member ')"
	r=$(cat "$2"/part-*.txt | grep -c '^rank ')
	ids=$(cat "$2"/part-*.txt | sed -n 's/^\(msg\|coll\|member\) \([0-9]*\) .*/\1 \2/p' | sort | uniq -d | head -n 1)
	if [ "$got" = "$tot" ] && [ "$r" = "$ranks" ] && [ -z "$ids" ]; then ok "$1 covered"
	else notok "$1 covered" "msgs/colls/members $got of $tot, ranks $r of $ranks${ids:+, twice: $ids}"; fi
}

n=0
for d in "$TRACES"/*/; do
	[ -f "$d/traces.otf2" ] || continue
	same "shared:$(basename "$d")" "$d"
	n=$((n + 1))
done
[ $n -gt 0 ] || echo "skip mpi-shared: no shared traces in $TRACES"

# bench/gen: non-blocking halo with Allreduce, ANY_SOURCE master/worker, groups, tree, ring
GEN=$BUILD/bench/gen
if [ -x "$GEN" ]; then
	for g in "halo2d --ranks 12 --iters 6 --tags unique" "masterworker --ranks 7 --iters 5" \
		 "groups --ranks 9 --groups 3 --iters 4" "tree --ranks 10 --fanout 3 --iters 3" \
		 "ring --ranks 5 --iters 4 --allreduce-every 0"; do
		set -- $g
		p=$1; shift
		if "$GEN" -o "$TMPD/gen-$p" --pattern $p "$@" >"$TMPD/log" 2>&1; then same "gen:$p" "$TMPD/gen-$p"
		else notok "gen:$p" "gen failed: $(head -n 1 "$TMPD/log")"; fi
	done
else
	echo "skip mpi-gen: $GEN not built"
fi

# sections of several 1 MiB chunks whose chunks straddle two processes' bytes
# (calls, ops, messages): the cache of P = 2, 3 gives the archive's output; a
# flipped byte in the calls' chunk 2 is named
if [ -x "$GEN" ] && "$GEN" -o "$TMPD/gen-big" --pattern halo2d --ranks 6 --iters 1500 --tags unique >"$TMPD/log" 2>&1; then
	rep "$TMPD/gen-big" --no-cache >"$TMPD/ra.json"
	"$BIN" render "$TMPD/gen-big" --view logical --size 120x36 --no-cache >"$TMPD/ra.txt" 2>/dev/null
	for P in 2 3; do
		rm -f "$TMPD/c.tcc"
		$MPIRUN -np $P "$MPI_BIN" prep "$TMPD/gen-big" -o "$TMPD/c.tcc" >"$TMPD/log" 2>&1
		cached "gen:halo2d-chunks" $P "$TMPD/gen-big" "$TMPD/c.tcc"
	done
	off=$(od -An -t u8 -j 80 -N 8 "$TMPD/c.tcc" | tr -d ' ')   # sec[CS_CALLS].off (src/cache/format.h)
	printf 'X' | dd of="$TMPD/c.tcc" bs=1 seek=$((off + 2 * 1048576 + 5)) conv=notrunc 2>/dev/null
	"$BIN" info "$TMPD/gen-big" --cache "$TMPD/c.tcc" >/dev/null 2>"$TMPD/err"
	check "gen:halo2d-chunks chunk named" grep -q "^cache: $TMPD/c.tcc: corrupt (section calls, chunk 2: checksum mismatch), reading the trace$" "$TMPD/err"
else
	echo "skip gen:halo2d-chunks: $GEN not built or failed"
fi

# contrib: mini-apps under the tctrace tracer (make -C contrib traces, as
# contrib.sh): sub-communicators (groups), ANY_SOURCE (masterworker), and
# the degenerate corpus app: ANY_SOURCE only, collectives only
CB=$(cd "$BUILD" && pwd)/contrib
if make --no-print-directory -C contrib BUILD="$CB" SIZES="4 16" traces >"$TMPD/make.log" 2>&1 &&
   ! grep -q 'skipping' "$TMPD/make.log"; then
	for d in "$CB"/traces/*-4p "$CB"/traces/*-16p; do
		[ -f "$d/traces.otf2" ] && same "contrib:$(basename "$d")" "$d"
	done
	for mode in anysrc coll; do
		dir=$TMPD/degen-$mode
		mkdir -p "$dir"
		if TRACECOMB_TRACE_DIR="$dir" TRACECOMB_QUIET=1 timeout 120 $MPIRUN -x LD_PRELOAD="$CB/libtctrace.so" \
			-x TRACECOMB_TRACE_DIR -x TRACECOMB_QUIET -np 5 "$CB/apps/degen" --mode $mode --iters 6 \
			>"$TMPD/log" 2>&1 && [ -f "$dir/traces.otf2" ]; then same "contrib:degen-$mode" "$dir"
		else notok "contrib:degen-$mode" "tracing failed: $(tail -n 2 "$TMPD/log" | tr '\n' ' ')"; fi
	done
else
	echo "skip mpi-contrib: $(grep -m 1 'skipping\|rror' "$TMPD/make.log" || echo 'make -C contrib traces failed')"
fi

# prep -o: one cache file, nothing else (no temporary left); an existing FILE
# is refused without --force, replaced with it; a corrupt chunk is named
T=$TRACES/tracer-stencil4d-32p
if [ -f "$T/traces.otf2" ]; then
	out=$TMPD/out; mkdir -p "$out"
	$MPIRUN -np 3 "$MPI_BIN" prep "$T" -o "$out/s.tcc" >"$TMPD/log" 2>&1
	rc=$?
	files=$(cd "$out" && ls -A | tr '\n' ' ')
	[ $rc = 0 ] && [ "$files" = "s.tcc " ]; verdict "prep-o files"
	check "prep-o says" grep -qx "prep: wrote $out/s.tcc (3 processes): the model, span, logical steps, lateness summary, wait states, profile and root causes stored" "$TMPD/log"

	# over --steps-bound (a tiny one): the steps are not stored, prep says so
	# in one line, the opener says why, and every output is still the archive's
	rep "$T" --no-cache >"$TMPD/ra.json"
	"$BIN" render "$T" --view logical --size 120x36 --no-cache >"$TMPD/ra.txt" 2>/dev/null
	why="the logical steps not stored by tracecomb-mpi: they need [0-9.]* KiB on one process, over --steps-bound 1.0 KiB"
	rcwhy="the root causes not stored by tracecomb-mpi: their records per rank and context need [0-9.]* KiB on one process, over --steps-bound 1.0 KiB"
	for P in 2 3; do
		rm -f "$TMPD/c.tcc"
		$MPIRUN -np $P "$MPI_BIN" prep "$T" -o "$TMPD/c.tcc" --steps-bound 1K >"$TMPD/log" 2>&1
		check "steps-bound P=$P says" grep -qx "prep: wrote $TMPD/c.tcc ($P processes): the model, span, wait states and profile stored; $why; $rcwhy: computed when it is opened" "$TMPD/log"
		got=$(sed -n 's/.*; \(the logical steps not stored by [^;]*\); the root causes .*: computed when it is opened$/\1/p' "$TMPD/log")
		cached "steps-bound" $P "$T" "$TMPD/c.tcc" "${got:-?}"
	done
	# --opt as tracecomb prep's: in the identity, the steps made with them
	# (lamport, leap_merge: the commands given the same --opt use the
	# stored steps and report as from the archive); caller_merge=on reads
	# every call: the steps are not stored, and that is said
	for opt in lamport=on leap_merge=on span=all caller_merge=on; do
		rep "$T" --no-cache --opt $opt >"$TMPD/ra.json"
		for P in 2 3; do
			rm -f "$TMPD/c.tcc"
			$MPIRUN -np $P "$MPI_BIN" prep "$T" -o "$TMPD/c.tcc" --opt $opt >"$TMPD/log" 2>&1
			rep "$T" --cache "$TMPD/c.tcc" --opt $opt >"$TMPD/rc.json"
			note="cache: $TMPD/c.tcc used"
			[ $opt = caller_merge=on ] && note="$note (the logical steps not stored by tracecomb-mpi: --opt caller_merge=on reads every call, which is not gathered: computed when needed)"
			if grep -qxF "$note" "$TMPD/rep.err" && cmp -s "$TMPD/ra.json" "$TMPD/rc.json"; then ok "opt $opt P=$P"
			else notok "opt $opt P=$P" "$(head -n 1 "$TMPD/rep.err"); $(diff "$TMPD/ra.json" "$TMPD/rc.json" | head -n 3 | tr '\n' ' ')"; fi
		done
	done
	$MPIRUN -np 2 "$MPI_BIN" prep "$T" -o "$TMPD/c.tcc" --opt nosuch=1 >"$TMPD/log" 2>&1
	rc=$?
	[ $rc = 1 ] && [ "$(grep -c '^tracecomb-mpi: prep: ' "$TMPD/log")" = 1 ]; verdict "opt unknown"
	$MPIRUN -np 2 "$MPI_BIN" prep "$T" -o "$TMPD/c.tcc" --steps-bound 12X >"$TMPD/log" 2>&1
	rc=$?
	[ $rc = 1 ] && grep -q "^tracecomb-mpi: prep: --steps-bound takes a size" "$TMPD/log"; verdict "steps-bound not a size"
	$MPIRUN -np 2 "$MPI_BIN" prep "$T" -o "$out/s.tcc" >"$TMPD/log" 2>&1
	rc=$?
	[ $rc = 0 ] && [ "$(cd "$out" && ls -A | tr '\n' ' ')" = "s.tcc " ]; verdict "prep-o replaces a cache"
	echo "not a cache" >"$out/x.tcc"
	$MPIRUN -np 2 "$MPI_BIN" prep "$T" -o "$out/x.tcc" >"$TMPD/log" 2>&1
	rc=$?
	[ $rc = 1 ] && [ "$(grep -c 'exists' "$TMPD/log")" = 1 ] && grep -q '^not a cache$' "$out/x.tcc"; verdict "prep-o exists"
	$MPIRUN -np 2 "$MPI_BIN" prep "$T" -o "$out/x.tcc" --force >"$TMPD/log" 2>&1
	rc=$?
	[ $rc = 0 ] && [ "$(cd "$out" && ls -A | tr '\n' ' ')" = "s.tcc x.tcc " ]; verdict "prep-o force"
	rm -f "$out/x.tcc"
	off=$(od -An -t u8 -j 80 -N 8 "$out/s.tcc" | tr -d ' ')   # sec[CS_CALLS].off (src/cache/format.h)
	printf 'X' | dd of="$out/s.tcc" bs=1 seek=$((off + 5)) conv=notrunc 2>/dev/null
	"$BIN" info "$T" --cache "$out/s.tcc" >/dev/null 2>"$TMPD/err"
	check "prep-o corrupt chunk named" grep -q "^cache: $out/s.tcc: corrupt (section calls, chunk 0: checksum mismatch), reading the trace$" "$TMPD/err"

	# one process cannot read its share: the last rank's event file cut short
	# (and unreadable, when not root)
	bad=$TMPD/bad; cp -r "$T" "$bad"
	evt=$(ls "$bad"/traces/*.evt | head -n 1)
	for f in "$bad"/traces/*.evt; do  # the highest location ref: the last rank's
		b=$(basename "$f" .evt); [ "$b" -gt "$(basename "$evt" .evt)" ] && evt=$f
	done
	head -c 200 "$evt" >"$TMPD/cut" && cat "$TMPD/cut" >"$evt"
	[ "$(id -u)" -ne 0 ] && chmod 000 "$evt"
	out=$TMPD/out2; mkdir -p "$out"
	timeout 120 $MPIRUN -np 4 "$MPI_BIN" prep "$bad" -o "$out/b.tcp" >"$TMPD/log" 2>"$TMPD/err"
	rc=$?
	check "fail-share exit" [ $rc = 2 ]
	check "fail-share one message" [ "$(grep -c "tracecomb-mpi: .*$(basename "$evt")" "$TMPD/err")" = 1 ]
	check "fail-share no output" [ -z "$(ls -A "$out")" ]

	# one process sees an empty anchor (a bind mount in a mount namespace of its
	# own, made by a wrapper for rank 1; skipped where mounts are refused): the
	# others must not wait for it in libotf2's collective open (they did,
	# until session 16): exit 2, one message, no output
	if unshare -m sh -c "mount --bind /dev/null '$TMPD/probe'" 2>/dev/null; then
		: >"$TMPD/empty-anchor"
		cat >"$TMPD/asym.sh" <<EOF2
#!/bin/sh
if [ "\$OMPI_COMM_WORLD_RANK" = 1 ]; then
	exec unshare -m sh -c "mount --bind '$TMPD/empty-anchor' '$T/traces.otf2' && exec \$*"
fi
exec "\$@"
EOF2
		chmod +x "$TMPD/asym.sh"
		out=$TMPD/out5; mkdir -p "$out"
		timeout 120 $MPIRUN -np 2 "$TMPD/asym.sh" "$MPI_BIN" prep "$T" -o "$out/a.tcc" >"$TMPD/log" 2>"$TMPD/err"
		rc=$?
		check "anchor-one-process exit" [ $rc = 2 ]
		check "anchor-one-process one message" [ "$(grep -c "^tracecomb-mpi: $T/traces.otf2: empty file, not an OTF2 anchor$" "$TMPD/err")" = 1 ]
		check "anchor-one-process no output" [ -z "$(ls -A "$out")" ]
	else
		echo "skip anchor-one-process: no mount namespace here (unshare -m)"
	fi
fi

# one process killed (kill -9) while the others run: every process ends, a
# non-zero status, no output.  The processes are stopped (SIGSTOP) as soon as
# they appear, so that the job cannot end before the kill.
G=$TMPD/gen-halo2d
if [ -f "$G/traces.otf2" ]; then
	out=$TMPD/out3; mkdir -p "$out"
	$MPIRUN -np 3 "$MPI_BIN" prep "$G" -o "$out/k.tcp" >"$TMPD/log" 2>&1 &
	job=$!
	pids=""; i=0
	while [ $i -lt 400 ]; do
		pids=$(for p in $(pgrep -x tracecomb-mpi); do
			tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q "$out/k.tcp" && echo "$p"; done)
		[ "$(echo $pids | wc -w)" = 3 ] && break
		i=$((i + 1)); sleep 0.02
	done
	if [ "$(echo $pids | wc -w)" = 3 ]; then
		kill -STOP $pids 2>/dev/null
		victim=$(echo $pids | tr ' ' '\n' | sort -n | tail -n 1)
		kill -9 "$victim"; kill -CONT $pids 2>/dev/null
		wait $job; rc=$?
		i=0; left=$pids
		while [ -n "$left" ] && [ $i -lt 50 ]; do
			sleep 0.1; i=$((i + 1))
			left=$(for p in $pids; do kill -0 "$p" 2>/dev/null && echo "$p"; done)
		done
		[ $rc -ne 0 ] && [ -z "$left" ]; verdict "killed-one ends all"
		check "killed-one no output" [ -z "$(ls -A "$out")" ]
	else
		wait $job
		echo "skip killed-one: the processes were not seen in time"
	fi
fi

# a full disk under the processes' write: a tmpfs of half the file's size,
# mounted in a mount namespace of the job's own (unshare -m; skipped where
# mounts are not allowed): exit 4, one message, neither the file nor a
# temporary left
if [ -f "$G/traces.otf2" ] && "$BIN" prep "$G" -o "$TMPD/full-ref.tcc" >/dev/null 2>&1; then
	out=$TMPD/out4; mkdir -p "$out"
	kb=$(( $(wc -c <"$TMPD/full-ref.tcc") / 2048 ))
	if unshare -m sh -c "mount -t tmpfs -o size=${kb}k tmpfs '$out'" 2>/dev/null; then
		unshare -m sh -c "mount -t tmpfs -o size=${kb}k tmpfs '$out' && timeout 120 $MPIRUN -np 3 '$MPI_BIN' prep \
			'$G' -o '$out/f.tcc' >'$TMPD/log' 2>'$TMPD/err'; echo \$? >'$TMPD/rc'; ls -A '$out' >'$TMPD/left'"
		check "full-disk exit" [ "$(cat "$TMPD/rc")" = 4 ]
		[ "$(grep -c "^tracecomb-mpi: $out/f.tcc: write failed: No space left on device$" "$TMPD/err")" = 1 ] &&
			[ "$(grep -c '^tracecomb-mpi: ' "$TMPD/err")" = 1 ]; verdict "full-disk one message"
		check "full-disk nothing left" [ ! -s "$TMPD/left" ]
	else
		echo "skip full-disk: no mount namespace here (unshare -m)"
	fi
fi

# no -o: the cache goes to the default place (as `tracecomb prep`), where
# `tracecomb TRACE` finds it by itself; an unwritable place: one message,
# exit 4, nothing written
T=$TRACES/casita-late-sender-barrier-4p
xdg=$TMPD/xdg
mkdir -p "$xdg"
XDG_CACHE_HOME=$xdg timeout 120 $MPIRUN -np 2 "$MPI_BIN" prep "$T" >"$TMPD/d.out" 2>&1; rc=$?
f=$(ls "$xdg"/tracecomb/*.tcc 2>/dev/null | head -n 1)
[ $rc -eq 0 ] && [ -n "$f" ] && grep -q "prep: wrote $f" "$TMPD/d.out"; verdict "default-place written"
XDG_CACHE_HOME=$xdg "$BIN" info "$T" >/dev/null 2>"$TMPD/d.err"
check "default-place used" grep -qx "cache: $f used" "$TMPD/d.err"
: >"$TMPD/plain"   # a file where the directory should be: refused even for root
XDG_CACHE_HOME=$TMPD/plain/x timeout 120 $MPIRUN -np 2 "$MPI_BIN" prep "$T" >"$TMPD/d.out" 2>&1; rc=$?
[ $rc -eq 4 ] && [ "$(grep -c 'cannot create the cache directory' "$TMPD/d.out")" = 1 ] && [ ! -s "$TMPD/plain" ]; verdict "default-place refused"

# --help; make mpi without mpicc says why
"$MPI_BIN" --help >"$TMPD/help" 2>&1
check "help" grep -q 'tracecomb-mpi prep TRACE' "$TMPD/help"
make -s --no-print-directory mpi MPICC=/nonexistent/mpicc >"$TMPD/log" 2>&1
check "make-mpi-no-mpicc" grep -q 'skip mpi: /nonexistent/mpicc not installed' "$TMPD/log"
