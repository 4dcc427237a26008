# contrib/corpus/probe-ramp.sh — a probe table (CORPUS_SET=probe-ramp), not
# part of make check: master/worker ramps (each worker slower than the one
# before) at 5, 7 and 9 ranks, ramps of 1 and 2 ms on 2 and 5 ms tasks, seeds
# 31-34, each with its clean twin; written to test the "slowest rank named
# beside the path's" rule of verdict_path.c on runs it was not made on.
MP2="masterworker --tasks 50 --task-ms 2 --slow-every 0"
MP5="masterworker --tasks 40 --task-ms 5 --slow-every 0"
cases() {
	cat <<CASES
p-mw-5p-ramp1-s31|mw|imbalance|imbalance|4|5|31||$MP2 --ramp-ms 1
p-mw-5p-clean-s31|mw|none|none||5|31||$MP2
p-mw-7p-ramp2-s32|mw|imbalance|imbalance|6|7|32||$MP5 --ramp-ms 2
p-mw-7p-clean-s32|mw|none|none||7|32||$MP5
p-mw-9p-ramp1-s33|mw|imbalance|imbalance|8|9|33|OVER=yield|$MP2 --ramp-ms 1
p-mw-9p-clean-s33|mw|none|none,noise||9|33|OVER=yield|$MP2
p-mw-7p-ramp1-s34|mw|imbalance|imbalance|6|7|34||$MP2 --ramp-ms 1
p-mw-7p-ramp1-s35|mw|imbalance|imbalance|6|7|35||$MP2 --ramp-ms 1
p-mw-6p-ramp2-s36|mw|imbalance|imbalance|5|6|36||$MP5 --ramp-ms 2
p-mw-6p-clean-s36|mw|none|none||6|36||$MP5
CASES
}
