# contrib/corpus/probe-mix19.sh — a probe table (CORPUS_SET=probe-mix19), not
# part of make check, written at the end of session 15 before any change it
# might suggest: a background episode in the middle of a 3 x 4 halo's run, a
# slow rank beside a background episode (either cause right), a 100-iteration
# ring delayed once early, a 3 x 3 halo whose compute is split into 3 user
# regions with a slow rank, a chain of 7 with two delays in different
# iterations, groups whose slow rank is a group leader; clean twins; seeds
# 431-436.
H12="halo2d --iters 40 --bytes 4096 --allreduce-every 5 --compute-ms 3"
RL="ring --iters 100 --compute-ms 1 --mode nb"
H9="halo2d --iters 30 --bytes 4096 --allreduce-every 5 --compute-ms 3 --regions 3"
C7="chain --iters 30 --compute-ms 3"
G12="groups --groups 3 --iters 30 --sync-every 3 --compute-ms 3"
cases() {
	cat <<CASES
m19-halo-12p-episode-s431|background|background|background||12|431|RANKS_PER_NODE=3 EMU_BG_US=2000 EMU_BG_PCT=100 EMU_BG_SCOPE=inter EMU_BG_WINDOW_MS=60:110|$H12
m19-halo-12p-clean-s431|halo|none|none||12|431|RANKS_PER_NODE=3|$H12
m19-halo-12p-slow-episode-s432|halo|imbalance|imbalance,background|7|12|432|RANKS_PER_NODE=3 EMU_BG_US=2000 EMU_BG_PCT=100 EMU_BG_SCOPE=inter EMU_BG_WINDOW_MS=60:90|$H12 --slow-rank 7 --slow-ms 1
m19-ring-nb-8p-long-early-s433|ring|imbalance|imbalance|5|8|433||$RL --delay-rank 5 --delay-iter 3 --delay-ms 40
m19-ring-nb-8p-long-clean-s433|ring|none|none||8|433||$RL
m19-halo-9p-reg3-slow-s434|halo|imbalance|imbalance|2|9|434||$H9 --slow-rank 2 --slow-ms 1
m19-chain-7p-two-s435|chain|imbalance|imbalance|2|7|435||$C7 --delay-rank 2 --delay-iter 8 --delay-ms 40 --delay2-rank 5 --delay2-iter 20 --delay2-ms 40
m19-chain-7p-clean-s435|chain|none|none||7|435||$C7
m19-groups-12p-leader-s436|groups|imbalance|imbalance|4|12|436||$G12 --slow-rank 4 --slow-ms 1
m19-groups-12p-clean-s436|groups|none|none||12|436||$G12
CASES
}
