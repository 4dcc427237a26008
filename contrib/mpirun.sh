# mpirun.sh — sourced by run-traces.sh and run-corpus.sh: sets MPIRUN (the
# mpirun command line that works here, also as root: oversubscribed, shared
# memory only, plus $MPIRUN_FLAGS) and checks that it can start processes;
# when it cannot, prints "<label>: skipping <what>: mpirun cannot start
# processes here:" and the first lines of its output, and exits 0.
# Usage: . ./mpirun.sh; mpirun_probe LABEL WHAT
ROOT=""
[ "$(id -u)" -eq 0 ] && ROOT="--allow-run-as-root"
MPIRUN="mpirun $ROOT --oversubscribe --bind-to none --mca btl self,vader ${MPIRUN_FLAGS:-}"
mpirun_probe() {
	if ! command -v timeout >/dev/null 2>&1; then echo "$1: timeout(1) not found (coreutils)"; exit 1; fi
	if ! out=$(timeout 60 $MPIRUN -np 2 true 2>&1); then
		echo "$1: skipping $2: mpirun cannot start processes here:"
		echo "$out" | head -n 5 | sed 's/^/  /'
		exit 0
	fi
}
