# contrib/corpus/probe-ramp2.sh — a second probe table (CORPUS_SET=probe-ramp2),
# not part of make check, written after the rule it tests: slow ranks that are
# slow throughout, in other shapes and sizes than probe-ramp.sh — master/worker
# ramps of 1 and 3 ms on 3 and 8 ms tasks at 4 and 8 ranks, a halo, a ring
# and a chain with one rank slow every iteration, and their clean twins; seeds
# 41-48.
cases() {
	cat <<CASES
q-mw-4p-ramp1-s41|mw|imbalance|imbalance|3|4|41||masterworker --tasks 40 --task-ms 3 --slow-every 0 --ramp-ms 1
q-mw-4p-clean-s41|mw|none|none||4|41||masterworker --tasks 40 --task-ms 3 --slow-every 0
q-mw-8p-ramp3-s42|mw|imbalance|imbalance|7|8|42||masterworker --tasks 60 --task-ms 8 --slow-every 0 --ramp-ms 3
q-mw-8p-clean-s42|mw|none|none||8|42||masterworker --tasks 60 --task-ms 8 --slow-every 0
q-mw-5p-ramp3-s43|mw|imbalance|imbalance|4|5|43||masterworker --tasks 30 --task-ms 3 --slow-every 0 --ramp-ms 3
q-halo-6p-slow-s44|halo|imbalance|imbalance|2|6|44||halo2d --iters 25 --bytes 4096 --allreduce-every 5 --compute-ms 3 --slow-rank 2 --slow-ms 3
q-halo-6p-clean-s44|halo|none|none||6|44||halo2d --iters 25 --bytes 4096 --allreduce-every 5 --compute-ms 3
q-ring-5p-slow-s45|ring|imbalance|imbalance|1|5|45||ring --iters 25 --compute-ms 3 --mode sendrecv --slow-rank 1 --slow-ms 2
q-ring-5p-clean-s45|ring|none|none||5|45||ring --iters 25 --compute-ms 3 --mode sendrecv
q-chain-4p-slow-s46|chain|imbalance|imbalance|2|4|46||chain --iters 25 --compute-ms 3 --slow-rank 2 --slow-ms 4
q-chain-4p-clean-s46|chain|none|none||4|46||chain --iters 25 --compute-ms 3
CASES
}
