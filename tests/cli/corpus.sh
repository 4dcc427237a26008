#!/bin/sh
# corpus.sh — the planted-cause corpus (contrib/README.md, "Corpus"): `make
# corpus`, then every archive loads with otf2-print and `tracecomb info`, its
# truth.txt has the keys the evaluator needs, and contrib/eval-corpus.sh scores
# tracecomb's verdicts and origins against the truth (one "ok"/"not ok" per
# case and the summary line).  Runs only with TC_CORPUS set (generation takes
# minutes); otherwise prints one skip line.
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
BIN=${BIN:-./tracecomb}
if [ -z "${TC_CORPUS:-}" ]; then echo "skip corpus: set TC_CORPUS=1 to generate and score the planted-cause corpus"; exit 0; fi
for t in otf2-print mpicc mpirun jq; do
	command -v $t >/dev/null 2>&1 || { echo "skip corpus: $t not installed (make deps)"; exit 0; }
done
mkdir -p "$BUILD" || exit 1
CORPUS=$(cd "$BUILD" && pwd)/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
make --no-print-directory -C contrib BUILD="$(cd "$BUILD" && pwd)/contrib" CORPUS="$CORPUS" corpus >"$tmp/make.log" 2>&1
rc=$?
if grep -q 'skipping' "$tmp/make.log"; then echo "skip corpus: $(grep 'skipping' "$tmp/make.log" | head -n 1)"; exit 0; fi
if [ $rc -eq 0 ]; then echo "ok make-corpus: $(tail -n 1 "$tmp/make.log")"; else
	echo "not ok make-corpus: exit $rc"; sed 's/^/  /' "$tmp/make.log" | tail -n 20
fi
for d in "$CORPUS"/*/; do
	d=${d%/}; name=$(basename "$d")
	if [ ! -f "$d/traces.otf2" ] || [ ! -f "$d/truth.txt" ]; then echo "not ok load:$name: traces.otf2 or truth.txt missing"; continue; fi
	bad=""
	otf2-print "$d/traces.otf2" >/dev/null 2>"$tmp/err" && [ ! -s "$tmp/err" ] || bad="$bad otf2-print: $(head -c 200 "$tmp/err")"
	"$BIN" info --json "$d/traces.otf2" >/dev/null 2>"$tmp/err" || bad="$bad info: $(head -c 200 "$tmp/err")"
	for k in case structure cause accept ranks oversubscribed init_pad_ms seed ranks_per_node node_map; do
		grep -q "^$k=" "$d/truth.txt" || bad="$bad truth lacks $k"
	done
	if [ -z "$bad" ]; then echo "ok load:$name"; else echo "not ok load:$name:$bad"; fi
done
sh contrib/eval-corpus.sh "$BIN" "$CORPUS" | sed 's/^\(not ok\|ok\) /\1 verdict:/'
exit 0
