# contrib/corpus/probe-mwjit.sh — a probe table (CORPUS_SET=probe-mwjit), not
# part of make check, written in session 24 before any change for it, after
# the fresh table's f-noise-mw-s13 (6 workers, 2 ms tasks, up to 3 ms of
# random jitter each) read "imbalance" in 3 of 13 reseeds: master/worker runs
# whose tasks carry heavy random jitter and nothing else (truth noise: noise
# or none accepted) on 5 to 11 ranks with 30 to 80 tasks, and their planted
# twins under the same jitter — every 3rd worker 2x slower, every 4th 2x under 4 ms of jitter,
# a ramp of 1 ms per worker, one task 25 ms longer; seeds 601-612.
cases() {
	cat <<CASES
mj-5p-j3000-t30-s601|noise|noise|noise,none||5|601||masterworker --tasks 30 --task-ms 2 --slow-every 0 --jitter-us 3000
mj-7p-j3000-t50-s602|noise|noise|noise,none||7|602||masterworker --tasks 50 --task-ms 2 --slow-every 0 --jitter-us 3000
mj-7p-j4000-t40-s603|noise|noise|noise,none||7|603||masterworker --tasks 40 --task-ms 3 --slow-every 0 --jitter-us 4000
mj-9p-j3000-t50-s604|noise|noise|noise,none||9|604||masterworker --tasks 50 --task-ms 2 --slow-every 0 --jitter-us 3000
mj-9p-j1500-t80-s605|noise|noise|noise,none||9|605||masterworker --tasks 80 --task-ms 2 --slow-every 0 --jitter-us 1500
mj-11p-j3000-t60-s606|noise|noise|noise,none||11|606||masterworker --tasks 60 --task-ms 2 --slow-every 0 --jitter-us 3000
mj-7p-slow3x2-j2000-s607|mw|imbalance|imbalance|3,6|7|607||masterworker --tasks 50 --task-ms 2 --slow-every 3 --slow-factor 2 --jitter-us 2000
mj-9p-slow3x2-j3000-s608|mw|imbalance|imbalance|3,6|9|608||masterworker --tasks 60 --task-ms 3 --slow-every 3 --slow-factor 2 --jitter-us 3000
mj-9p-slow4x2-j4000-s609|mw|imbalance|imbalance|4,8|9|609||masterworker --tasks 72 --task-ms 2 --slow-every 4 --slow-factor 2 --jitter-us 4000
mj-7p-ramp1-j2000-s610|mw|imbalance|imbalance|6|7|610||masterworker --tasks 60 --task-ms 2 --slow-every 0 --ramp-ms 1 --jitter-us 2000
mj-6p-once-j3000-s611|mw|imbalance|imbalance|2|6|611||masterworker --tasks 40 --task-ms 3 --slow-every 0 --delay-rank 2 --delay-iter 4 --delay-ms 25 --jitter-us 3000
mj-8p-j2500-t60-s612|noise|noise|noise,none||8|612||masterworker --tasks 60 --task-ms 2 --slow-every 0 --jitter-us 2500
CASES
}
