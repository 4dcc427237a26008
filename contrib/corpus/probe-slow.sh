# contrib/corpus/probe-slow.sh — a probe table (CORPUS_SET=probe-slow), not
# part of make check: slow groups, several ranks slow in every iteration
# (`--slow-ranks`, truth `slow_ranks`: every one must be named), in a halo,
# a ring, a chain, a 2-ary tree and groups, one with a delayed rank beside the
# group, each with its clean twin; seeds 71-76.  Written in session 10 with the
# rule that names every rank slow throughout beside the critical path's
# (add_slow_ranks in src/analysis/verdict_path.c): before it, a group of 8 slow
# ranks of 64 was named as 5 of them, or as the delayed rank alone.
HS="halo2d --iters 25 --bytes 4096 --allreduce-every 5 --compute-ms 3"
RS="ring --iters 25 --compute-ms 3 --mode sendrecv"
CS="chain --iters 25 --compute-ms 3"
TS="tree --arity 2 --iters 20 --bytes 4096 --compute-ms 3"
GS="groups --groups 2 --iters 25 --bytes 4096 --sync-every 5 --compute-ms 3"
cases() {
	cat <<CASES
s-halo-8p-slow2-s71|halo|imbalance|imbalance|2,5|8|71||$HS --slow-ranks 2,5 --slow-ms 3
s-halo-8p-clean-s71|halo|none|none||8|71||$HS
s-halo-9p-slow3-s72|halo|imbalance|imbalance|1,4,7|9|72|OVER=yield|$HS --slow-ranks 1,4,7 --slow-ms 2
s-halo-9p-clean-s72|halo|none|none,noise||9|72|OVER=yield|$HS
s-ring-6p-slow2-s73|ring|imbalance|imbalance|1,4|6|73||$RS --slow-ranks 1,4 --slow-ms 2
s-ring-6p-clean-s73|ring|none|none||6|73||$RS
s-chain-5p-slow2-s74|chain|imbalance|imbalance|1,3|5|74||$CS --slow-ranks 1,3 --slow-ms 2
s-chain-5p-clean-s74|chain|none|none||5|74||$CS
s-halo-8p-slow2-delay-s75|halo|imbalance|imbalance|7|8|75||$HS --slow-ranks 2,5 --slow-ms 2 --delay-rank 7 --delay-iter 12 --delay-ms 60
s-tree-7p-slow2-s76|tree2|imbalance|imbalance|3,5|7|76||$TS --slow-ranks 3,5 --slow-ms 3
s-tree-7p-clean-s76|tree2|none|none||7|76||$TS
s-groups-6p-slow2-s77|groups|imbalance|imbalance|1,4|6|77||$GS --slow-ranks 1,4 --slow-ms 2
s-groups-6p-clean-s77|groups|none|none||6|77||$GS
CASES
}
