#!/bin/sh
# The matrix view in the real binary, in a private tmux server: `:view matrix`,
# the cell cursor moved with j/l/h and the status line read ("src → dst: N
# messages, B bytes"), b toggles bytes / messages, Enter restricts the other
# views to the pair's ranks and Esc restores them; LANG=C draws 7-bit only.
NAME=matrix-tui
. "$(dirname "$0")/../support/tmux.sh"
MT=$TRACES/casita-mpi-tags-10p
if [ ! -d "$MT" ]; then echo "skip matrix-tui: no casita-mpi-tags-10p in $TRACES"; exit 0; fi

start 80 24 "$UTF" "$MT"
wait_for "?:help" >/dev/null
keys : 'view matrix' Enter
check matrix-view "matrix | rank 0/9"
check matrix-heading "bytes from sender (rows) to receiver (columns), 10 ranks"
check matrix-start "1 → 0: 2 messages, 8 bytes"    # the heaviest pair (ties: the first)
check matrix-total "total 72 bytes in 18 messages"
keys j j
check matrix-down "3 → 0: 2 messages, 8 bytes"
keys l
check matrix-right "3 → 1: 0 messages, 0 bytes"
keys h k
check matrix-left-up "2 → 0: 2 messages, 8 bytes"
keys b
check matrix-toggle "shading by messages"
check matrix-messages-heading "messages from sender (rows)"
keys Enter
check matrix-enter "pair 2>0: the other views show its 2 ranks"
keys 1
check matrix-restricted "f:pair 2>0"
keys Escape
check matrix-esc "filter cleared"
keys Tab Tab Tab Tab Tab Tab Tab Tab Tab Tab Tab
check matrix-tab "matrix |"
keys q
check matrix-quit "EXIT=0"

start 80 24 "TERM=xterm LANG=C LC_ALL=C" "$MT"
wait_for "?:help" >/dev/null
keys : 'view matrix' Enter
check matrix-ascii-status "1 -> 0: 2 messages, 8 bytes"
ascii_only matrix-ascii-only
keys q
check matrix-ascii-quit "EXIT=0"
