# contrib/corpus/probe-mix8.sh — a probe table (CORPUS_SET=probe-mix8), not
# part of make check, written at the end of session 12 before any change it
# might suggest: delays where the origins must name them — two delays in
# different iterations and ranks (a halo with rendezvous messages, a 4-ary
# tree, groups that sync every 8 iterations), a delay beside a slow rank, a
# delay after a 2 s MPI_Init, a 2-rank pair over 40 iterations, ANY_SOURCE
# with 7 ranks, a Sendrecv ring with 256 KiB messages delayed on its last
# rank; clean twins; seeds 211-218.
HB="halo2d --iters 30 --bytes 262144 --allreduce-every 10 --compute-ms 3"
T4="tree --arity 4 --iters 20 --bytes 2048 --compute-ms 3"
G3="groups --groups 3 --iters 30 --bytes 8192 --sync-every 8 --compute-ms 3"
RB="ring --iters 30 --bytes 262144 --compute-ms 3 --mode sendrecv"
cases() {
	cat <<CASES
p8-halo-big-8p-two-s211|halo|imbalance|imbalance|2|8|211||$HB --delay-rank 2 --delay-iter 8 --delay-ms 50 --delay2-rank 6 --delay2-iter 21 --delay2-ms 50
p8-halo-big-8p-clean-s211|halo|none|none||8|211||$HB
p8-tree4-9p-two-s212|tree4|imbalance|imbalance|3|9|212|OVER=yield|$T4 --delay-rank 3 --delay-iter 5 --delay-ms 40 --delay2-rank 7 --delay2-iter 14 --delay2-ms 40
p8-tree4-9p-clean-s212|tree4|none|none,noise||9|212|OVER=yield|$T4
p8-groups3-9p-two-s213|groups|imbalance|imbalance|1|9|213|OVER=yield|$G3 --delay-rank 1 --delay-iter 6 --delay-ms 50 --delay2-rank 7 --delay2-iter 20 --delay2-ms 50
p8-groups3-9p-clean-s213|groups|none|none,noise||9|213|OVER=yield|$G3
p8-halo-8p-slow-delay-s214|halo|imbalance|imbalance|4|8|214||$HB --slow-rank 1 --slow-ms 2 --delay-rank 4 --delay-iter 15 --delay-ms 60
p8-ring-8p-pad-s215|ring|imbalance|imbalance|5|8|215|INIT_PAD_MS=2000|$RB --delay-rank 5 --delay-iter 11 --delay-ms 50
p8-ring-8p-pad-clean-s215|ring|none|none||8|215|INIT_PAD_MS=2000|$RB
p8-pair-2p-s216|degenerate|imbalance|imbalance|1|2|216||degen --mode pair --iters 40 --compute-ms 2 --delay-rank 1 --delay-iter 25 --delay-ms 40
p8-pair-2p-clean-s216|degenerate|none|none||2|216||degen --mode pair --iters 40 --compute-ms 2
p8-anysrc-7p-s217|degenerate|imbalance|imbalance|4|7|217||degen --mode anysrc --iters 30 --compute-ms 3 --delay-rank 4 --delay-iter 17 --delay-ms 50
p8-anysrc-7p-clean-s217|degenerate|none|none||7|217||degen --mode anysrc --iters 30 --compute-ms 3
p8-ring-big-8p-last-s218|ring|imbalance|imbalance|7|8|218||$RB --delay-rank 7 --delay-iter 19 --delay-ms 50
CASES
}
