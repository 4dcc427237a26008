# tmux.sh — what the UI tests (tests/ui/*.sh) share: BIN and TRACES, the
# golden directory G, a private tmux server (killed on exit) and the helpers
# start, screen, wait_for, keys, check, check_not, golden, restored.
# Sourced from the repository root: . tests/support/tmux.sh (NAME names the
# suite in skip lines).  Exits 0 with a skip line without tmux or traces.
BIN=${BIN:-./tracecomb}
# the shared traces: $TRACES (tests/run.sh sets it), else shared/traces beside
# the checkout or one of its parents (a git worktree)
if [ -z "$TRACES" ] || [ ! -d "$TRACES" ]; then
	d=$(pwd)
	while [ "$d" != / ] && [ ! -d "$d/../shared/traces" ]; do d=$(dirname "$d"); done
	TRACES=$d/../shared/traces
fi
G=tests/golden/tui
case "$BIN" in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
if ! command -v tmux >/dev/null 2>&1; then echo "skip ${NAME:-tui}: tmux not installed"; exit 0; fi
if [ ! -d "$TRACES/tracer-stencil4d-32p" ]; then echo "skip ${NAME:-tui}: no traces in $TRACES"; exit 0; fi
S=tc$$
T="tmux -L $S -f /dev/null"
tmp=$(mktemp -d)
trap '$T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
mkdir -p $G
ST=$TRACES/tracer-stencil4d-32p
UTF="TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8"

# start W H ENV ARGS: the UI in a fresh session; the shell reports the exit code
# (a fresh socket each time: a server that is still shutting down is never reused)
n=0
start() {
	$T kill-server 2>/dev/null
	n=$((n + 1))
	T="tmux -L $S-$n -f /dev/null"
	$T new-session -d -s m -x "$1" -y "$2" "trap '' INT; env -u NO_COLOR $3 sh -c 'echo \$\$ >$tmp/pid; exec $BIN $4'; echo EXIT=\$?; sleep 60"
}
screen() { $T capture-pane -p -t m; }
# wait_for TEXT: poll the screen up to WAIT_S seconds (default 10: a first
# analysis view may compute for a while)
wait_for() {
	i=0
	while [ $i -lt $((${WAIT_S:-10} * 20)) ]; do
		screen | grep -qF -- "$1" && return 0
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}
keys() { $T send-keys -t m "$@"; }
check() {   # check NAME TEXT: the screen shows TEXT
	if wait_for "$2"; then echo "ok $1"; else echo "not ok $1: no '$2' on screen"; screen | sed 's/^/    /' | head -n 30; fi
}
check_not() {   # check_not NAME TEXT (after the screen settled)
	sleep 0.2
	if screen | grep -qF -- "$2"; then echo "not ok $1: '$2' still on screen"; else echo "ok $1"; fi
}
golden() {   # golden NAME MARKER: wait for MARKER, compare the whole screen with $G/NAME.txt
	wait_for "$2" || true
	sleep 0.1
	screen >"$tmp/got"
	if [ -n "$UPDATE" ]; then cp "$tmp/got" "$G/$1.txt"; echo "ok tui-$1 (updated)"; return; fi
	if cmp -s "$tmp/got" "$G/$1.txt"; then echo "ok tui-$1"
	else echo "not ok tui-$1"; diff "$G/$1.txt" "$tmp/got" | head -n 20; fi
}
restored() {   # the program has exited with CODE and left the alternate screen
	if wait_for "EXIT=$2" && [ "$($T display -p -t m '#{alternate_on}')" = 0 ]; then echo "ok $1"
	else echo "not ok $1: not restored (alternate_on=$($T display -p -t m '#{alternate_on}'))"; screen | tail -n 5; fi
}

ascii_only() {   # ascii_only NAME: nothing but 7-bit characters on the screen
	sleep 0.2
	if screen | LC_ALL=C grep -q '[^ -~]'; then echo "not ok $1: non-ASCII bytes on screen"; else echo "ok $1"; fi
}
