# contrib/corpus/probe-jitter.sh — a probe table (CORPUS_SET=probe-jitter),
# not part of make check, written in session 15 after the persistent excess
# of a rank's own place (docs/rootcause.md §3), to see that it does not take
# jitter for a slow head or tail: chains of 5, 6, 8 and 10 ranks, 3-ary and
# binary trees, a 3 x 3 halo, compute jitter of 1.5 to 3.5 ms on 2-3 ms of
# work, nothing else; seeds 401-408 (noise or none are both right).
cases() {
	cat <<CASES
j-chain-5p-j2500-s401|noise|noise|noise,none||5|401||chain --iters 30 --compute-ms 3 --jitter-us 2500
j-chain-6p-j1500-s402|noise|noise|noise,none||6|402||chain --iters 40 --compute-ms 2 --jitter-us 1500
j-chain-8p-j3500-s403|noise|noise|noise,none||8|403||chain --iters 30 --compute-ms 3 --jitter-us 3500
j-chain-10p-j2500-s404|noise|noise|noise,none||10|404||chain --iters 30 --compute-ms 3 --jitter-us 2500
j-tree3-13p-j2500-s405|noise|noise|noise,none||13|405||tree --arity 3 --iters 24 --compute-ms 3 --jitter-us 2500
j-tree2-7p-j2000-s406|noise|noise|noise,none||7|406||tree --arity 2 --iters 30 --compute-ms 2 --jitter-us 2000
j-halo-9p-j2500-s407|noise|noise|noise,none||9|407||halo2d --iters 30 --bytes 4096 --allreduce-every 5 --compute-ms 3 --jitter-us 2500
j-chain-6p-tags-j2500-s408|noise|noise|noise,none||6|408||chain --iters 30 --compute-ms 3 --jitter-us 2500 --tags iter
CASES
}
