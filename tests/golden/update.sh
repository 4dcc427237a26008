#!/bin/sh
# Regenerates the render goldens (tests/golden/render/*.txt) from the cases in
# tests/golden/render-cases.txt and tests/golden/render-extra-cases.txt.  Run after the steps engine or a view changes,
# then review `git diff tests/golden`.
#   BIN=./tracecomb TRACES=/work/shared/traces sh tests/golden/update.sh
cd "$(dirname "$0")/../.." || exit 1
BIN=${BIN:-./tracecomb}
case "$BIN" in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
TRACES=${TRACES:-$(cd .. && cd .. && pwd)/shared/traces}
[ -d "$TRACES" ] || TRACES=/work/shared/traces
cat tests/golden/render-cases.txt tests/golden/render-extra-cases.txt | grep -v '^#' | while IFS='|' read -r name trace opts; do
	[ -n "$name" ] || continue
	# shellcheck disable=SC2086
	"$BIN" render "$TRACES/$trace" $opts >"tests/golden/render/$name.txt" 2>/dev/null
	echo "updated $name"
done
# the regions and evolution views (tests/golden/render-regions-cases.txt)
UPDATE=1 BIN="$BIN" TRACES="$TRACES" sh tests/cli/render_regions.sh | grep -v '^ok ' || true
# the tmux screens (tests/golden/tui/*.txt)
UPDATE=1 BIN="$BIN" TRACES="$TRACES" sh tests/ui/tui.sh | grep -v '^ok ' || true
UPDATE=1 BIN="$BIN" TRACES="$TRACES" sh tests/ui/extra.sh | grep -v '^ok ' || true
# the DAG and verdict views (their own cases file and tmux script)
UPDATE=1 BIN="$BIN" TRACES="$TRACES" sh tests/cli/render_verdicts.sh | grep -v '^ok ' || true
UPDATE=1 BIN="$BIN" TRACES="$TRACES" sh tests/ui/verdicts.sh | grep -v '^ok ' || true
UPDATE=1 BIN="$BIN" TRACES="$TRACES" sh tests/ui/clusters.sh | grep -v '^ok ' || true
