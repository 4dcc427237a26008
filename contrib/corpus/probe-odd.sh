# contrib/corpus/probe-odd.sh — a probe table (CORPUS_SET=probe-odd), not part
# of make check, written at the end of session 12 before any change it might
# suggest: shapes that do not divide evenly — a halo on 7 and 11 ranks (a
# 7×1 and 11×1 grid), a 3-ary tree of 10 ranks (its last inner node has one
# child), 7 ranks in 2 groups, a 3-rank chain, a 13-rank master/worker with a
# ramp; delays in the first and the last iteration; clean twins; seeds 221-227.
H="halo2d --iters 25 --bytes 4096 --allreduce-every 5 --compute-ms 3"
T3="tree --arity 3 --iters 20 --bytes 2048 --compute-ms 3"
G="groups --groups 2 --iters 25 --bytes 8192 --sync-every 5 --compute-ms 3"
C="chain --iters 25 --compute-ms 3"
M="masterworker --tasks 72 --task-ms 3 --slow-every 0"
cases() {
	cat <<CASES
o-halo-7p-first-s221|halo|imbalance|imbalance|3|7|221||$H --delay-rank 3 --delay-iter 0 --delay-ms 40
o-halo-7p-clean-s221|halo|none|none||7|221||$H
o-halo-11p-last-s222|halo|imbalance|imbalance|10|11|222|OVER=yield|$H --delay-rank 10 --delay-iter 24 --delay-ms 40
o-halo-11p-clean-s222|halo|none|none,noise||11|222|OVER=yield|$H
o-tree3-10p-lone-s223|tree3|imbalance|imbalance|9|10|223|OVER=yield|$T3 --delay-rank 9 --delay-iter 11 --delay-ms 40
o-tree3-10p-clean-s223|tree3|none|none,noise||10|223|OVER=yield|$T3
o-groups-7p-s224|groups|imbalance|imbalance|6|7|224||$G --delay-rank 6 --delay-iter 13 --delay-ms 50
o-groups-7p-clean-s224|groups|none|none||7|224||$G
o-chain-3p-mid-s225|chain|imbalance|imbalance|1|3|225||$C --delay-rank 1 --delay-iter 12 --delay-ms 40
o-chain-3p-clean-s225|chain|none|none||3|225||$C
o-mw-13p-ramp-s226|mw|imbalance|imbalance|12|13|226|OVER=yield|$M --ramp-ms 1
o-mw-13p-clean-s226|mw|none|none,noise||13|226|OVER=yield|$M
o-halo-7p-slow-s227|halo|imbalance|imbalance|5|7|227||$H --slow-rank 5 --slow-ms 3
CASES
}
