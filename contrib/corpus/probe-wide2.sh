# contrib/corpus/probe-wide2.sh — a probe table (CORPUS_SET=probe-wide2), not
# part of make check, written in session 15 before any change it might
# suggest: 24 to 32 ranks on this 2-core machine with waiting ranks that
# yield the CPU (OVER=yield): a 8 x 4 halo with a rank 1 ms slower in 3, a
# 24-rank Sendrecv ring delayed once, a binary tree of 31 whose leaf is
# delayed, a chain of 24 whose tail does extra work every 3rd iteration,
# 4 groups of 6 with a delayed rank; clean twins (none or noise); seeds
# 421-425.
H32="halo2d --iters 20 --bytes 4096 --allreduce-every 5 --compute-ms 3"
RS="ring --iters 20 --compute-ms 3 --mode sendrecv"
T31="tree --arity 2 --iters 16 --compute-ms 3"
C24="chain --iters 20 --compute-ms 3"
G24="groups --groups 4 --iters 20 --sync-every 5 --compute-ms 3"
cases() {
	cat <<CASES
w2-halo-32p-slow-s421|halo|imbalance|imbalance|13|32|421|OVER=yield|$H32 --slow-rank 13 --slow-ms 1
w2-halo-32p-clean-s421|halo|none|none,noise||32|421|OVER=yield|$H32
w2-ring-sr-24p-delay-s422|ring|imbalance|imbalance|9|24|422|OVER=yield|$RS --delay-rank 9 --delay-iter 10 --delay-ms 40
w2-ring-sr-24p-clean-s422|ring|none|none,noise||24|422|OVER=yield|$RS
w2-tree2-31p-leaf-s423|tree|imbalance|imbalance|22|31|423|OVER=yield|$T31 --delay-rank 22 --delay-iter 8 --delay-ms 40
w2-tree2-31p-clean-s423|tree|none|none,noise||31|423|OVER=yield|$T31
w2-chain-24p-tail-s424|chain|imbalance|imbalance|23|24|424|OVER=yield|$C24 --extra-rank 23 --extra-every 3 --extra-ms 6
w2-chain-24p-clean-s424|chain|none|none,noise||24|424|OVER=yield|$C24
w2-groups-24p-delay-s425|groups|imbalance|imbalance|14|24|425|OVER=yield|$G24 --delay-rank 14 --delay-iter 10 --delay-ms 40
w2-groups-24p-clean-s425|groups|none|none,noise||24|425|OVER=yield|$G24
CASES
}
