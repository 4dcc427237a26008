# contrib/corpus/probe-episode.sh — a probe table (CORPUS_SET=probe-episode),
# not part of make check: background episodes longer than the rest of the run
# (the tracer's EMU_BG_WINDOW_MS from some point to past the end, or from the
# start to past the middle), where a context's median is itself slow and
# nothing in the episode was an outlier; with clean twins; seeds 81-85.
# Written in session 10 with the rule it tests (quiet periods, context_quiet
# in src/analysis/rcexcess.c): before it, every case here read "none".
HE="halo2d --iters 40 --bytes 4096 --allreduce-every 5 --compute-ms 2"
RE="ring --iters 40 --compute-ms 2 --mode nb"
CE="chain --iters 40 --compute-ms 2"
cases() {
	cat <<CASES
e-halo-8p-late-s81|background|background|background||8|81|RANKS_PER_NODE=4 EMU_BG_US=1000 EMU_BG_PCT=100 EMU_BG_WINDOW_MS=30:100000|$HE
e-halo-8p-clean-s81|halo|none|none||8|81|RANKS_PER_NODE=4|$HE
e-ring-6p-late-s82|background|background|background||6|82|RANKS_PER_NODE=3 EMU_BG_US=1500 EMU_BG_PCT=100 EMU_BG_WINDOW_MS=25:100000|$RE
e-ring-6p-clean-s82|ring_nb|none|none||6|82|RANKS_PER_NODE=3|$RE
e-halo-6p-early-s83|background|background|background||6|83|RANKS_PER_NODE=3 EMU_BG_US=1200 EMU_BG_PCT=100 EMU_BG_WINDOW_MS=0:90|$HE
e-chain-5p-late-s84|background|background|background||5|84|RANKS_PER_NODE=1 EMU_BG_US=1000 EMU_BG_PCT=100 EMU_BG_WINDOW_MS=30:100000|$CE
e-chain-5p-clean-s84|chain|none|none||5|84|RANKS_PER_NODE=1|$CE
e-halo-8p-half-s85|background|background|background||8|85|RANKS_PER_NODE=4 EMU_BG_US=800 EMU_BG_PCT=50 EMU_BG_WINDOW_MS=40:100000|$HE
CASES
}
