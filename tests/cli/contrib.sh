#!/bin/sh
# contrib.sh — real MPI traces from contrib/ (tctrace tracer + mini-apps).
# Builds/refreshes them with `make -C contrib traces`, then for every archive:
# otf2-print reads it cleanly, the message counts and bytes equal what the app
# itself counted (expected.txt), numberOfEvents matches the events, the
# communicators of `groups` have the planted members, halo2d's delayed rank has
# the longest "compute", slowinter's slowed sends are all there, and — when
# $BIN supports `info --json` — tracecomb matches every message.
# Prints "ok NAME", "not ok NAME: why" or "skip NAME: why" per case.
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
BIN=${BIN:-./tracecomb}
mkdir -p "$BUILD" || exit 1
CB=$(cd "$BUILD" && pwd)/contrib
TR=$CB/traces
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

if ! command -v otf2-print >/dev/null 2>&1; then
	echo "skip contrib: otf2-print not installed (apt-get install otf2-tools)"; exit 0
fi
if ! command -v mpicc >/dev/null 2>&1 || ! command -v mpirun >/dev/null 2>&1; then
	echo "skip contrib: MPI not installed (apt-get install openmpi-bin libopenmpi-dev)"; exit 0
fi
make --no-print-directory -C contrib BUILD="$CB" traces >"$tmp/make.log" 2>&1
rc=$?
if grep -q 'skipping traces' "$tmp/make.log"; then
	echo "skip contrib: $(grep 'skipping traces' "$tmp/make.log" | head -n 1)"; exit 0
fi
if [ $rc -eq 0 ]; then echo "ok make-traces"; else
	echo "not ok make-traces: exit $rc"; sed 's/^/  /' "$tmp/make.log" | tail -n 20
fi

# tracecomb info --json available?  (probed on the first trace)
info=0
first=$(ls -d "$TR"/*/ 2>/dev/null | head -n 1)
if [ -x "$BIN" ] && [ -n "$first" ] && "$BIN" info --json "${first}traces.otf2" >/dev/null 2>&1; then info=1; fi

key() { sed -n "s/^$1=//p" "$2"; }
num_field() { # JSON number of key $1 in file $2 (first occurrence)
	tr ',{}' '\n\n\n' <"$2" | sed -n "s/^ *\"$1\" *: *\([0-9][0-9]*\).*/\1/p" | head -n 1
}

ntr=0
for d in "$TR"/*-*p; do
	[ -d "$d" ] || continue
	name=$(basename "$d")
	exp=$d/expected.txt
	if [ ! -f "$d/traces.otf2" ] || [ ! -f "$exp" ]; then echo "not ok trace:$name: archive or expected.txt missing"; continue; fi
	ntr=$((ntr + 1))
	ev=$tmp/ev; defs=$tmp/defs
	otf2-print "$d/traces.otf2" >"$ev" 2>"$tmp/err"; rc=$?
	otf2-print -G "$d/traces.otf2" >"$defs" 2>>"$tmp/err" || rc=$?
	if [ $rc -eq 0 ] && [ ! -s "$tmp/err" ]; then echo "ok otf2-print:$name"; else
		echo "not ok otf2-print:$name: exit $rc, stderr: $(head -c 300 "$tmp/err")"; continue
	fi

	# message records and bytes against the app's own counts
	bad=""
	for k in send isend recv irecv; do
		K=$(echo "MPI_$k" | tr a-z A-Z)
		got=$(grep -c "^$K " "$ev"); want=$(key "mpi_$k" "$exp")
		[ "$got" = "$want" ] || bad="$bad $K=$got(want $want)"
	done
	got=$(grep -c '^MPI_ISEND_COMPLETE ' "$ev"); want=$(key mpi_isend "$exp")
	[ "$got" = "$want" ] || bad="$bad ISEND_COMPLETE=$got(want $want)"
	got=$(grep -c '^MPI_IRECV_REQUEST ' "$ev"); want=$(key mpi_irecv "$exp")
	[ "$got" = "$want" ] || bad="$bad IRECV_REQUEST=$got(want $want)"
	got=$(grep -E '^MPI_I?SEND ' "$ev" | sed -n 's/.*Length: \([0-9]*\).*/\1/p' | awk '{s+=$1} END{printf "%d", s}')
	want=$(key bytes "$exp")
	[ "$got" = "$want" ] || bad="$bad bytes=$got(want $want)"
	if [ -z "$bad" ]; then echo "ok counts:$name"; else echo "not ok counts:$name:$bad"; fi

	# definitions: one CPU location per rank, numberOfEvents = events read
	n=$(key ranks "$exp")
	locs=$(grep -c '^LOCATION  .*Type: CPU_THREAD' "$defs")
	sed -n 's/^LOCATION  *\([0-9]*\) .*# Events: \([0-9]*\),.*/\1 \2/p' "$defs" | sort -n >"$tmp/declared"
	awk 'NR > 5 && $2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/ { c[$2]++ } END { for (l in c) print l, c[l] }' "$ev" |
		sort -n >"$tmp/counted"
	world=$(grep -c '^COMM .*Name: "MPI_COMM_WORLD"' "$defs")
	cl=$(grep -c "^GROUP .*Type: COMM_LOCATIONS.* $n Members" "$defs")
	if [ "$locs" = "$n" ] && cmp -s "$tmp/declared" "$tmp/counted" && [ "$world" = 1 ] && [ "$cl" = 1 ]; then
		echo "ok defs:$name"
	else
		echo "not ok defs:$name: locations=$locs (want $n), MPI_COMM_WORLD comms=$world, COMM_LOCATIONS=$cl, numberOfEvents $(cmp -s "$tmp/declared" "$tmp/counted" && echo match || echo differ)"
	fi

	case $name in
	groups-*)
		# every planted group is a COMM_GROUP of exactly those world ranks, used by a Comm
		G=$(key groups "$exp"); bad=""
		grep '^GROUP .*Type: COMM_GROUP' "$defs" | while IFS= read -r line; do
			gid=$(echo "$line" | awk '{print $2}')
			mem=$(echo "$line" | sed 's/.*Members: //' | grep -o '[0-9][0-9]* ("' | sed 's/ ("//' | paste -sd, -)
			grep -q "^COMM .*Group: \"[^\"]*\" <$gid>" "$defs" && echo "$mem"
		done >"$tmp/comm_members"
		g=0
		while [ "$g" -lt "$G" ]; do
			want=$(key "group.$g" "$exp")
			grep -qx "$want" "$tmp/comm_members" || bad="$bad group.$g=$want missing"
			g=$((g + 1))
		done
		if [ -z "$bad" ]; then echo "ok comms:$name"; else echo "not ok comms:$name:$bad"; fi ;;
	halo2d-*)
		dr=$(key delay_rank "$exp"); dms=$(key delay_ms "$exp")
		res=$(awk '/^ENTER/ && /Region: "compute"/ { st[$2] = $3 }
			   /^LEAVE/ && /Region: "compute"/ { d = $3 - st[$2]; if (d > max) { max = d; who = $2 } }
			   END { printf "%d %d", who, max / 1e6 }' "$ev")
		who=${res% *}; ms=${res#* }
		if [ "$who" = "$dr" ] && [ "$ms" -ge $((dms * 9 / 10)) ]; then echo "ok delay:$name"
		else echo "not ok delay:$name: longest compute on rank $who ($ms ms), planted rank $dr ($dms ms)"; fi ;;
	masterworker-*)
		# every task of a slow worker lasts >= slow_factor*task_ms; on average they are longer
		se=$(key slow_every "$exp"); sf=$(key slow_factor "$exp"); tm=$(key task_ms "$exp")
		res=$(awk -v se="$se" -v lim="$((sf * tm * 1000000))" '
			/^ENTER/ && /Region: "task"/ { st[$2] = $3 }
			/^LEAVE/ && /Region: "task"/ { d = $3 - st[$2]
				if ($2 % se == 0) { ns++; ss += d; if (d < lim) short++ } else { nf++; sf += d } }
			END { printf "%d %d %d", short, (ns ? ss / ns : 0) / 1e3, (nf ? sf / nf : 0) / 1e3 }' "$ev")
		set -- $res
		if [ "$1" = 0 ] && [ "$2" -gt "$3" ]; then echo "ok imbalance:$name"
		else echo "not ok imbalance:$name: $1 short slow tasks, mean slow $2 us vs fast $3 us"; fi ;;
	slowinter-*)
		got=$(grep '^ENTER' "$ev" | grep -c 'Region: "slow_link"'); want=$(key slowed_sends "$exp")
		lim=$(($(key slow_ms "$exp") * 1000000))
		short=$(awk -v lim="$lim" '/^ENTER/ && /Region: "slow_link"/ { st[$2] = $3 }
			/^LEAVE/ && /Region: "slow_link"/ { if ($3 - st[$2] < lim) n++ } END { printf "%d", n }' "$ev")
		if [ "$got" = "$want" ] && [ "$want" -gt 0 ] && [ "$short" = 0 ]; then echo "ok slowed:$name"
		else echo "not ok slowed:$name: $got slow_link regions ($short shorter than slow-ms), app slowed $want sends"; fi ;;
	esac

	if [ $info = 1 ]; then
		if "$BIN" info --json "$d/traces.otf2" >"$tmp/info.json" 2>"$tmp/info.err"; then
			us=$(num_field unmatched_sends "$tmp/info.json"); ur=$(num_field unmatched_recvs "$tmp/info.json")
			m=""
			for k in messages matched_messages matched nmsgs; do
				[ -n "$m" ] || m=$(num_field "$k" "$tmp/info.json")
			done
			want=$(key messages "$exp")
			if [ "$us" = 0 ] && [ "$ur" = 0 ] && [ "$m" = "$want" ]; then echo "ok info:$name"
			else echo "not ok info:$name: unmatched_sends=$us unmatched_recvs=$ur messages=$m (want $want)"; fi
		else
			echo "not ok info:$name: $BIN info --json failed: $(head -c 200 "$tmp/info.err")"
		fi
	else
		echo "skip info:$name: $BIN info --json not available"
	fi
done
[ $ntr -gt 0 ] || echo "not ok traces: none under $TR"
