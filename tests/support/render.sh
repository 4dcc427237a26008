# render.sh — what the render tests (tests/cli/render*.sh) share: BIN made
# absolute, TRACES (the shared traces; in a git worktree they sit next to the
# main checkout) and the golden directory G.  Sourced from the repository
# root: . tests/support/render.sh (NAME names the suite in the skip line).
# Exits 0 with a skip line when there are no traces.
BIN=${BIN:-./tracecomb}
TRACES=${TRACES:-/work/shared/traces}
if [ ! -d "$TRACES" ] && c=$(git rev-parse --git-common-dir 2>/dev/null); then TRACES=$(cd "$c/../.." && pwd)/shared/traces; fi
G=tests/golden
case "$BIN" in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
if [ ! -d "$TRACES" ]; then echo "skip ${NAME:-render}: no traces in $TRACES"; exit 0; fi
