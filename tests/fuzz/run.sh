#!/bin/sh
# Fuzzing driver (tests/fuzz/README.md).  Usage:
#   run.sh smoke [BUILD]           every regression input under tests/fuzz/regress/<target>/,
#                                  then each target for FUZZ_SMOKE_SECONDS (default 10) on the seeds;
#                                  prints "ok NAME" / "not ok NAME" lines and "N passed, N failed"
#   run.sh seeds [BUILD]           (re)make the seed corpus under BUILD/corpus/<target>/
#   run.sh run TARGET SECONDS [BUILD] [JOBS]  a long run; findings go to BUILD/findings/TARGET/
# The targets: reader (a whole OTF2 archive, tests/fuzz/archive.h), theme (YAML), opts (--opt lines).
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mode=$1
B=${2:-build-fuzz}
case $mode in run) B=${4:-build-fuzz} ;; esac
case $B in /*) ;; *) B=$root/$B ;; esac
# the shared traces sit in shared/ beside the clone (or beside a parent of a worktree)
if [ -z "$TRACES" ]; then
	d=$root
	while [ "$d" != / ] && [ ! -d "$d/../shared/traces" ]; do d=$(dirname "$d"); done
	TRACES=$(cd "$d/../shared/traces" 2>/dev/null && pwd)
fi
# sanitizer reports are fatal; libFuzzer's own limits catch blow-ups
# An allocation over 1 GiB is refused (NULL), as an address-space limit on a login
# node refuses it: libotf2 sizes some arrays by a count declared in the record
# (a ProgramBegin's argument count: 8 GB for a 267-byte event file) before it
# checks the count against the bytes there, and must get NULL and fail cleanly
# (MEM_FAULT -> exit 2) rather than have ASan write the shadow of 8 GB.  Ours are
# checked before they are made (tc_alloc_check: -DTC_FUZZ_ALLOC_LIMIT, Makefile).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:allocator_may_return_null=1:max_allocation_size_mb=1024}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$here/lsan.supp:print_suppressions=0}
# one allocation over 1 GiB or 10 s of CPU time on one input is a finding (the
# CPU time is checked by the targets, archive.h: fz_cpu_end; FUZZ_CPU_SECONDS);
# the wall-time -timeout (FUZZ_TIMEOUT, default 60 s) only catches hangs: on a
# shared machine a niced fuzzer waits for the CPU far longer than it uses it.
# The whole process may hold more (ASan keeps freed memory in quarantine,
# ~250 MB): FUZZ_RSS_MB raises that limit only (default 1024)
LIMITS="-rss_limit_mb=${FUZZ_RSS_MB:-1024} -malloc_limit_mb=1024 -timeout=${FUZZ_TIMEOUT:-60}"
# reader inputs beyond 64 KiB only slow the search down (the seeds are 7-45 KiB)
MAXLEN_reader=65536 MAXLEN_theme=65536 MAXLEN_opts=4096

seeds() {
	c=$B/corpus
	mkdir -p "$c/reader" "$c/theme" "$c/opts"
	if [ -d "$TRACES" ]; then
		for tr in "$TRACES"/*/; do
			n=$(basename "$tr")
			"$B/fuzz/pack" "$tr" "$c/reader/$n" 2>/dev/null        # up to 11 locations' files
			"$B/fuzz/pack" "$tr" "$c/reader/$n-1loc" 1 2>/dev/null  # anchor + defs + one evt
			find "$c/reader" -size +300k -delete  # big seeds only slow the fuzzer down
		done
	fi
	for f in "$root"/themes/*.yaml; do cp "$f" "$c/theme/"; done
	cp "$here"/seeds/opts/* "$c/opts/" 2>/dev/null
	cp "$here"/regress/reader/* "$c/reader/" 2>/dev/null
	cp "$here"/regress/theme/* "$c/theme/" 2>/dev/null
	cp "$here"/regress/opts/* "$c/opts/" 2>/dev/null
	return 0
}

case $mode in
seeds) seeds ;;
smoke)
	seeds
	pass=0; fail=0
	secs=${FUZZ_SMOKE_SECONDS:-10}
	log=$(mktemp)
	for t in reader theme opts; do
		for f in "$here"/regress/$t/*; do
			[ -f "$f" ] || continue
			if nice "$B/fuzz/fuzz_$t" $LIMITS "$f" >"$log" 2>&1; then
				echo "ok fuzz-regress $t/$(basename "$f")"; pass=$((pass + 1))
			else
				echo "not ok fuzz-regress $t/$(basename "$f")"; tail -n 30 "$log"; fail=$((fail + 1))
			fi
		done
		w=$(mktemp -d)
		eval "maxlen=\$MAXLEN_$t"
		if nice "$B/fuzz/fuzz_$t" $LIMITS -max_len="$maxlen" -max_total_time="$secs" -print_final_stats=1 -artifact_prefix="$w/" \
			"$w" "$B/corpus/$t" >"$log" 2>&1; then
			echo "ok fuzz-smoke $t ($(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | cut -d' ' -f2) execs in ${secs}s; $(grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE)' "$log" | tail -n 1 | grep -o 'cov: [0-9]* ft: [0-9]*'))"
			pass=$((pass + 1))
		else
			echo "not ok fuzz-smoke $t"; grep -v '^#' "$log" | tail -n 40; ls "$w"; fail=$((fail + 1))
		fi
		rm -rf "$w"
	done
	rm -f "$log"
	echo "fuzz: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	;;
run)
	t=$2; secs=$3
	seeds
	mkdir -p "$B/findings/$t" "$B/work/$t"
	eval "maxlen=\$MAXLEN_$t"
	# niceness is the caller's (nice -n 5 sh run.sh run ...): a nice of 15 on a
	# machine at load 50 ran the opts target at 1 exec/s for 0.02 s of CPU each
	"$B/fuzz/fuzz_$t" $LIMITS -max_len="$maxlen" -max_total_time="$secs" -print_final_stats=1 \
		-artifact_prefix="$B/findings/$t/" "$B/work/$t" "$B/corpus/$t"
	;;
*) echo "usage: $0 smoke|seeds|run ..." >&2; exit 1 ;;
esac
