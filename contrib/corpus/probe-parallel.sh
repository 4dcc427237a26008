# contrib/corpus/probe-parallel.sh — a probe table (CORPUS_SET=probe-parallel),
# not part of make check, written in session 11 to test the parallel-delays
# rule (verdict_path.c add_parallel_delays) on what it was not made on: two
# ranks held in the same iteration on a nonblocking ring, a binary tree (two
# leaves), a chain, two groups, a parity ring, an oversubscribed halo, with
# unequal sizes (40 and 25 ms), and a rendezvous Sendrecv ring; each planted
# case names both ranks (the truth's ranks: delay_rank and delay2_rank);
# seeds 131-138.  Clean twins of these shapes are in the other tables.
HM="halo2d --iters 25 --bytes 4096 --allreduce-every 5 --compute-ms 3"
RN="ring --iters 30 --compute-ms 2 --mode nb"
T2="tree --arity 2 --iters 20 --bytes 2048 --compute-ms 3"
CM="chain --iters 25 --compute-ms 3"
GL="groups --groups 2 --iters 24 --bytes 4096 --compute-ms 3"
RP="ring --iters 25 --compute-ms 3 --mode parity"
RB="ring --iters 25 --compute-ms 3 --mode sendrecv --bytes 262144"
cases() {
	cat <<CASES
p-ring-nb-8p-two-s131|ring_nb|imbalance|imbalance|1,5|8|131||$RN --delay-rank 1 --delay-iter 12 --delay-ms 30 --delay2-rank 5 --delay2-iter 12 --delay2-ms 30
p-tree2-7p-leaves-s132|tree2|imbalance|imbalance|3,6|7|132||$T2 --delay-rank 3 --delay-iter 9 --delay-ms 40 --delay2-rank 6 --delay2-iter 9 --delay2-ms 40
p-chain-6p-two-s133|chain|imbalance|imbalance|1,4|6|133||$CM --delay-rank 1 --delay-iter 10 --delay-ms 40 --delay2-rank 4 --delay2-iter 10 --delay2-ms 40
p-groups-8p-two-s134|groups|imbalance|imbalance|1,6|8|134||$GL --delay-rank 1 --delay-iter 8 --delay-ms 40 --delay2-rank 6 --delay2-iter 8 --delay2-ms 40
p-ring-par-6p-two-s135|ring_parity|imbalance|imbalance|0,3|6|135||$RP --delay-rank 0 --delay-iter 14 --delay-ms 40 --delay2-rank 3 --delay2-iter 14 --delay2-ms 40
p-halo-9p-over-s136|halo|imbalance|imbalance|4,8|9|136|OVER=yield|$HM --delay-rank 4 --delay-iter 12 --delay-ms 40 --delay2-rank 8 --delay2-iter 12 --delay2-ms 40
p-halo-8p-uneq-s137|halo|imbalance|imbalance|1,6|8|137||$HM --delay-rank 1 --delay-iter 15 --delay-ms 40 --delay2-rank 6 --delay2-iter 15 --delay2-ms 25
p-ring-big-6p-two-s138|ring|imbalance|imbalance|2,5|6|138||$RB --delay-rank 2 --delay-iter 10 --delay-ms 30 --delay2-rank 5 --delay2-iter 10 --delay2-ms 30
CASES
}
