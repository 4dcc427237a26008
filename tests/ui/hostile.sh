#!/bin/sh
# Issue 17, item 3: every fatal path of the terminal UI puts the terminal back
# (leaves the alternate screen) and its message is seen after endwin: the
# signals that end the process (SIGXCPU from `ulimit -t`, SIGXFSZ, SIGUSR1,
# SIGALRM, ...) and running out of memory inside the UI (tc_oom, exit 3).
NAME=hostile-ui
. "$(dirname "$0")/../support/tmux.sh"

for s in XCPU:152:"CPU time limit exceeded (SIGXCPU)" XFSZ:153:"file size limit exceeded (SIGXFSZ)" \
	 USR1:138:"user signal 1 (SIGUSR1)" ALRM:142:"alarm clock (SIGALRM)" USR2:140:"user signal 2 (SIGUSR2)"; do
	sig=${s%%:*}; rest=${s#*:}; code=${rest%%:*}; msg=${rest#*:}
	start 80 24 "$UTF" "$ST"
	wait_for "?:help" >/dev/null
	kill -$sig "$(cat "$tmp/pid")"
	restored "sig$sig-restored" "$code"
	check "sig$sig-message" "tracecomb: $msg; terminal restored"
done

# out of memory inside the UI: address-space limits (prlimit, util-linux) from
# too little to load the trace up to enough; where the load runs out of memory
# inside the UI (exit 3), the terminal must be back and the message on screen
if command -v prlimit >/dev/null 2>&1; then
	oom=0 raw=0 kb=12000
	while [ $kb -le 17000 ]; do
		start 80 24 "$UTF prlimit --as=$((kb * 1024))" "$TRACES/casita-jacobi-mpi-omp-cuda-cpu015-2p"
		if WAIT_S=5 wait_for "EXIT="; then
			alt=$($T display -p -t m '#{alternate_on}')
			[ "$alt" = 0 ] || raw=$((raw + 1))
			screen | grep -q "EXIT=3" && screen | grep -q "^tracecomb: out of memory (allocating" && [ "$alt" = 0 ] && oom=$((oom + 1))
		fi
		kb=$((kb + 500))
	done
	check_n() { if [ "$2" ]; then echo "ok $1"; else echo "not ok $1"; fi; }
	check_n oom-in-ui-restored-with-message "$([ $oom -ge 1 ] && echo y)"
	check_n no-exit-leaves-terminal-raw "$([ $raw -eq 0 ] && echo y)"
else
	echo "skip oom-in-ui: prlimit (util-linux) not installed"
fi
