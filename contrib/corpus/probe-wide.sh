# contrib/corpus/probe-wide.sh — a probe table (CORPUS_SET=probe-wide), not
# part of make check, written in session 12 before any change it might
# suggest: 24 to 48 ranks on the 2-core machine (12-24 ranks per core,
# yielding or busy-polling), clean and with one 40 ms delay, in a halo, a
# 3-ary tree, a master/worker, a chain and collectives only; seeds 191-200.
H="halo2d --iters 20 --bytes 4096 --allreduce-every 5 --compute-ms 3"
T="tree --arity 3 --iters 10 --bytes 2048 --compute-ms 3"
M="masterworker --tasks 96 --task-ms 3 --slow-every 0"
C="chain --iters 20 --compute-ms 2"
D="degen --mode coll --iters 20 --compute-ms 3"
cases() {
	cat <<CASES
w-halo-24p-clean-s191|halo|none|none,noise||24|191|OVER=yield|$H
w-halo-24p-delay-s191|halo|imbalance|imbalance|17|24|191|OVER=yield|$H --delay-rank 17 --delay-iter 11 --delay-ms 40
w-halo-32p-over1-clean-s192|halo|none|none,noise||32|192|OVER=1|$H
w-tree3-40p-clean-s193|tree3|none|none,noise||40|193|OVER=yield|$T
w-tree3-40p-delay-s193|tree3|imbalance|imbalance|22|40|193|OVER=yield|$T --delay-rank 22 --delay-iter 6 --delay-ms 40
w-mw-32p-clean-s194|mw|none|none,noise||32|194|OVER=yield|$M
w-chain-24p-clean-s195|chain|none|none,noise||24|195|OVER=yield|$C
w-chain-24p-delay-s195|chain|imbalance|imbalance|9|24|195|OVER=yield|$C --delay-rank 9 --delay-iter 8 --delay-ms 40
w-coll-48p-clean-s196|degenerate|none|none,noise||48|196|OVER=yield|$D
w-coll-48p-delay-s196|degenerate|imbalance|imbalance|30|48|196|OVER=yield|$D --delay-rank 30 --delay-iter 12 --delay-ms 40
CASES
}
