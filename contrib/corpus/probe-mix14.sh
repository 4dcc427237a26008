# contrib/corpus/probe-mix14.sh — a probe table (CORPUS_SET=probe-mix14), not
# part of make check, written at the end of session 14 before any change it
# might suggest: sizes and mixes no table uses — a 4 x 4 halo with a rank a
# third slower, a binary tree of 15 with a leaf delayed, a chain of 10 tagged
# by iteration with a middle rank delayed, a Sendrecv ring of 12 with 64 KiB
# messages delayed once, background in 15 % of a nonblocking ring's sends,
# a 3 x 2 halo with two ranks delayed in the same iteration, groups that meet
# every iteration with one rank delayed, ANY_SOURCE on 5 ranks with a worker
# delayed early; clean twins; seeds 331-338.
H16="halo2d --iters 25 --bytes 4096 --allreduce-every 5 --compute-ms 3"
T15="tree --arity 2 --iters 20 --compute-ms 3"
CT="chain --iters 25 --compute-ms 2 --tags iter"
RS="ring --iters 25 --compute-ms 3 --mode sendrecv --bytes 65536"
RN="ring --iters 30 --compute-ms 3 --mode nb"
H6="halo2d --iters 30 --bytes 4096 --allreduce-every 5 --compute-ms 3"
G1="groups --groups 2 --iters 30 --sync-every 1 --compute-ms 3"
AS="degen --mode anysrc --compute-ms 3 --iters 20"
cases() {
	cat <<CASES
m14-halo-16p-slow-s331|halo|imbalance|imbalance|9|16|331||$H16 --slow-rank 9 --slow-ms 1
m14-halo-16p-clean-s331|halo|none|none||16|331||$H16
m14-tree2-15p-leaf-s332|tree|imbalance|imbalance|11|15|332||$T15 --delay-rank 11 --delay-iter 10 --delay-ms 40
m14-tree2-15p-clean-s332|tree|none|none||15|332||$T15
m14-chain-10p-tags-mid-s333|chain|imbalance|imbalance|4|10|333||$CT --delay-rank 4 --delay-iter 12 --delay-ms 40
m14-chain-10p-tags-clean-s333|chain|none|none||10|333||$CT
m14-ring-sr-12p-big-mid-s334|ring|imbalance|imbalance|7|12|334||$RS --delay-rank 7 --delay-iter 10 --delay-ms 40
m14-ring-sr-12p-big-clean-s334|ring|none|none||12|334||$RS
m14-ring-nb-8p-bg15-s335|background|background|background||8|335|RANKS_PER_NODE=2 EMU_BG_US=2500 EMU_BG_PCT=15 EMU_BG_SCOPE=both|$RN
m14-ring-nb-8p-clean-s335|ring|none|none||8|335|RANKS_PER_NODE=2|$RN
m14-halo-6p-same-s336|halo|imbalance|imbalance|1,4|6|336||$H6 --delay-rank 1 --delay-iter 12 --delay-ms 40 --delay2-rank 4 --delay2-iter 12 --delay2-ms 40
m14-halo-6p-clean-s336|halo|none|none||6|336||$H6
m14-groups-8p-sync1-s337|groups|imbalance|imbalance|5|8|337||$G1 --delay-rank 5 --delay-iter 15 --delay-ms 40
m14-groups-8p-sync1-clean-s337|groups|none|none||8|337||$G1
m14-anysrc-5p-early-s338|degenerate|imbalance|imbalance|3|5|338||$AS --delay-rank 3 --delay-iter 2 --delay-ms 60
m14-anysrc-5p-clean-s338|degenerate|none|none||5|338||$AS
CASES
}
