#!/bin/sh
# `tracecomb info --json` against otf2-print on every shared trace: event counts
# by kind, plus matching and rank-mapping facts from MANIFEST.md.
. "$(dirname "$0")/../lib.sh"
command -v otf2-print >/dev/null || { echo "skip info: otf2-print not installed"; exit 0; }
[ -d "$TRACES" ] || { echo "skip info: no traces at $TRACES"; exit 0; }

for dir in "$TRACES"/*/; do
	name=$(basename "$dir")
	j="$TMPD/$name.json"
	if ! "$BIN" info --json "$dir" >"$j" 2>"$TMPD/err"; then
		notok "info-loads-$name" "$(cat "$TMPD/err")"; continue
	fi
	ok "info-loads-$name"
	otf2-print "$dir/traces.otf2" 2>/dev/null | awk 'NR > 4 && $1 ~ /^[A-Z_]+$/ && $1 != "ADDITIONAL" { c[$1]++; n++ }
	END {
		printf "events %d\n", n
		printf "enter %d\nleave %d\n", c["ENTER"], c["LEAVE"]
		printf "mpi_send %d\nmpi_isend %d\nmpi_isend_complete %d\n", c["MPI_SEND"], c["MPI_ISEND"], c["MPI_ISEND_COMPLETE"]
		printf "mpi_irecv_request %d\nmpi_irecv %d\nmpi_recv %d\n", c["MPI_IRECV_REQUEST"], c["MPI_IRECV"], c["MPI_RECV"]
		printf "collective_begin %d\ncollective_end %d\n", c["MPI_COLLECTIVE_BEGIN"], c["MPI_COLLECTIVE_END"]
		other = n; split("ENTER LEAVE MPI_SEND MPI_ISEND MPI_ISEND_COMPLETE MPI_IRECV_REQUEST MPI_IRECV MPI_RECV MPI_COLLECTIVE_BEGIN MPI_COLLECTIVE_END", k, " ")
		for (i in k) other -= c[k[i]]
		printf "other %d\n", other
	}' >"$TMPD/expect"
	bad=""
	while read -r key want; do
		got=$(json_num "$j" "$key")
		[ "$got" = "$want" ] || bad="$bad $key=$got(otf2-print:$want)"
	done <"$TMPD/expect"
	if [ -z "$bad" ]; then ok "counts-match-otf2-print-$name"; else notok "counts-match-otf2-print-$name" "$bad"; fi
	# every message of the shared traces is matched
	check "all-matched-$name" test "$(json_num "$j" unmatched_sends)$(json_num "$j" unmatched_recvs)" = "00"
done

# pipit ping-pong: 16 messages, 8 each way, 4,177,920 bytes each way
j="$TMPD/pipit-ping-pong-2p.json"
check pingpong-16-messages test "$(json_num "$j" matched)" = 16
m=$(tr -d ' \n' <"$j" | sed -n 's/.*"comm_matrix_bytes":\[\[\([0-9,]*\)\],\[\([0-9,]*\)\]\].*/\1;\2/p')
check pingpong-bytes-each-way test "$m" = "0,4177920;4177920,0"
# sub-communicators: sstmacro has 10 ranks on 10 nodes; jacobi's MPI_COMM_WORLD is comm 4
check sstmacro-10-ranks-10-nodes test "$(json_num "$TMPD/sstmacro-mpi-coverage-10p.json" ranks)/$(json_num "$TMPD/sstmacro-mpi-coverage-10p.json" nodes)" = "10/10"
check sstmacro-1440-messages test "$(json_num "$TMPD/sstmacro-mpi-coverage-10p.json" matched)" = 1440
check jacobi-2-ranks-2-nodes test "$(json_num "$TMPD/casita-jacobi-mpi-omp-cuda-cpu015-2p.json" ranks)/$(json_num "$TMPD/casita-jacobi-mpi-omp-cuda-cpu015-2p.json" nodes)" = "2/2"
check jacobi-8-threads test "$(json_num "$TMPD/casita-jacobi-mpi-omp-cuda-cpu015-2p.json" threads)" = 8
check jacobi-1002-collectives test "$(json_num "$TMPD/casita-jacobi-mpi-omp-cuda-cpu015-2p.json" collectives)" = 1002
check stencil32-3-barriers-complete test "$(json_num "$TMPD/tracer-stencil4d-32p.json" collectives)/$(json_num "$TMPD/tracer-stencil4d-32p.json" incomplete_collectives)" = "3/0"
# odd cases load with warnings
check stencil-unclosed-warning grep -q 'still open at the end' "$TMPD/tracer-stencil4d-32p.json"
check xeonphi-no-world-ranks test "$(json_num "$TMPD/casita-jacobi-mpi-omp-xeonphi-01-1p.json" ranks)" = 1

# report: every section known so far runs on every trace, text and JSON
for dir in "$TRACES"/*/; do
	name=$(basename "$dir")
	if "$BIN" report --json "$dir" >"$TMPD/r.json" 2>"$TMPD/err" && "$BIN" report "$dir" >/dev/null 2>>"$TMPD/err"; then
		ok "report-all-sections-$name"
	else
		notok "report-all-sections-$name" "$(head -c 200 "$TMPD/err")"
	fi
done
check report-json-has-waitstates grep -q '"late_sender":' "$TMPD/r.json"
check report-json-has-profile grep -q '"message_sizes":' "$TMPD/r.json"
