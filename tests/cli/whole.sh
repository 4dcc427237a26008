#!/bin/sh
# Issue 15: every location and every counter is in the model.  `info --json`
# against otf2-print -G / otf2-print on every shared trace: locations by type,
# CPU threads and accelerator streams per rank (location group), and each
# metric's name, unit, mode and number of samples (one per METRIC record
# naming it).
. "$(dirname "$0")/../lib.sh"
command -v otf2-print >/dev/null || { echo "skip whole: otf2-print not installed"; exit 0; }
command -v jq >/dev/null || { echo "skip whole: jq not installed"; exit 0; }
[ -d "$TRACES" ] || { echo "skip whole: no traces at $TRACES"; exit 0; }

for dir in "$TRACES"/*/; do
	tn=$(basename "$dir")
	j="$TMPD/$tn.json"
	"$BIN" info --json "$dir" >"$j" 2>/dev/null || { notok "whole-loads-$tn"; continue; }
	otf2-print -G "$dir/traces.otf2" 2>/dev/null >"$TMPD/defs"
	# locations by type
	want=$(awk '$1 == "LOCATION" { t = $0; sub(/.*Type: /, "", t); sub(/,.*/, "", t); n[t]++ }
		END { printf "%d %d %d %d", n["CPU_THREAD"], n["ACCELERATOR_STREAM"], n["METRIC"],
		      n["UNKNOWN"] + n["CPU_THREAD"] * 0 }' "$TMPD/defs")
	got=$(jq -r '.locations_by_type | "\(.cpu_thread) \(.gpu) \(.metric) \(.other)"' "$j")
	check "whole-locations-$tn" [ "$got" = "$want" ]
	# CPU threads and streams per rank: location groups "MPI Rank N" (MANIFEST.md: always so named)
	want=$(awk '$1 == "LOCATION" { g = $0; sub(/.*Group: "MPI Rank /, "", g); sub(/".*/, "", g)
			t = $0; sub(/.*Type: /, "", t); sub(/,.*/, "", t)
			if (t == "CPU_THREAD") c[g + 0]++; if (t == "ACCELERATOR_STREAM") s[g + 0]++; if (g + 1 > n) n = g + 1 }
		END { for (i = 0; i < n; i++) printf "%d/%d ", c[i], s[i] }' "$TMPD/defs")
	got=$(jq -r '[.threads_per_rank, .streams_per_rank] | transpose | map("\(.[0])/\(.[1]) ") | add // ""' "$j")
	check "whole-threads-per-rank-$tn" [ "$got" = "$want" ]
	# metrics: definitions and samples (an empty unit written as -)
	otf2-print "$dir/traces.otf2" 2>/dev/null | awk '$1 == "METRIC" {
		s = $0
		while (match(s, /\("[^"]*" <[0-9]+>; /)) { m = substr(s, RSTART + 2, RLENGTH - 2); sub(/" <.*/, "", m); n[m]++; s = substr(s, RSTART + RLENGTH) }
	} END { for (m in n) print m "\t" n[m] }' | sort >"$TMPD/samples"
	awk '$1 == "METRIC_MEMBER" { l = $0
		nm = l; sub(/.*Name: "/, "", nm); sub(/".*/, "", nm)
		u = l; sub(/.*Unit: "/, "", u); sub(/".*/, "", u); if (u == "") u = "-"
		md = l; sub(/.*Mode: /, "", md); sub(/_.*/, "", md)
		print nm "\t" u "\t" tolower(md) }' "$TMPD/defs" | sort >"$TMPD/mdefs"
	want=$(join -t "$(printf '\t')" -a 1 -e 0 -o 1.1,1.2,1.3,2.2 "$TMPD/mdefs" "$TMPD/samples")
	got=$(jq -r '.metrics[] | [.name, (if .unit == "" then "-" else .unit end), .mode, .samples] | @tsv' "$j" | sort)
	check "whole-metrics-$tn" [ "$got" = "$want" ]
done
# the PAPI trace: its three counters, 84 samples each (MANIFEST.md)
j="$TMPD/pipit-ping-pong-papi-2p.json"
check "whole-papi-three-counters" [ "$(jq -r '[.metrics[] | "\(.name):\(.samples)"] | sort | join(",")' "$j" 2>/dev/null)" = \
	"PAPI_BR_MSP:84,PAPI_L2_TCM:84,PAPI_TOT_CYC:84" ]
