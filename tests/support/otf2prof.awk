# otf2prof.awk — the by-hand flat profile of an OTF2 archive from `otf2-print`
# output, independent of tracecomb's reader and model (issue 15's reference):
#   otf2-print ARCHIVE | awk -f otf2prof.awk
# prints one line per (location, region ref) with calls:
#   LOCATION <TAB> REGION NAME <TAB> CALLS <TAB> EXCLUSIVE TICKS <TAB> INCLUSIVE TICKS
# exclusive = duration minus the direct children's durations; inclusive =
# durations of the calls with no caller of the same region on their location
# (recursion counted once); a region still open at the end closes at the
# location's last record of any kind; a LEAVE with nothing open is ignored.
# With -v byrank=FILE (lines "LOCATION RANK") the cells are summed per rank.
# With -v counters="NAME1,NAME2" (accumulated metrics) the cells are per
# (location or rank, region, metric) instead, the values being the metric's:
#   WHO <TAB> REGION <TAB> METRIC <TAB> CALLS <TAB> EXCLUSIVE <TAB> INCLUSIVE
# a call's inclusive value = the metric's last METRIC value before its LEAVE
# minus the last before its ENTER (calls before the first value left out).
BEGIN {
	if (byrank != "") while ((getline line < byrank) > 0) { split(line, f, " "); rank_of[f[1]] = f[2] }
	nmet = counters == "" ? 0 : split(counters, met, ",")
}
# the values of a METRIC line: cur[loc, name]
function metric_values(loc, s,    m, v) {
	while (match(s, /\("[^"]*" <[0-9]+>; [A-Z0-9]+; [-0-9.e+]+\)/)) {
		m = substr(s, RSTART + 2, RLENGTH - 3); s = substr(s, RSTART + RLENGTH)
		v = m; sub(/.*; /, "", v)
		sub(/" <.*/, "", m)
		cur[loc, m] = v + 0; have[loc, m] = 1
	}
}
function close_counters(loc, k, r,    i, m, d) {
	for (i = 1; i <= nmet; i++) {
		m = met[i]
		if (!((loc, k, m) in at)) continue
		d = cur[loc, m] - at[loc, k, m]
		delete at[loc, k, m]
		mcalls[loc, r, m]++
		mexcl[loc, r, m] += d - mchild[loc, k, m]
		if (open_n[loc, r] == 1) mincl[loc, r, m] += d
		if (k > 1 && ((loc, k - 1, m) in at)) mchild[loc, k - 1, m] += d
		mseen[loc, r, m] = 1
	}
}
# Timestamps reach 2^53 (10^16 ticks): awk's doubles would round them, so a
# tick count is taken relative to the first record's leading digits, exactly.
function ticks(s,    n, hi, lo) {
	n = length(s)
	hi = n > 9 ? substr(s, 1, n - 9) + 0 : 0
	lo = substr(s, n > 9 ? n - 8 : 1) + 0
	if (!have_base) { base_hi = hi; have_base = 1 }
	return (hi - base_hi) * 1000000000 + lo
}
function close_top(loc, t,    d, r, k) {
	k = depth[loc]
	r = stk_reg[loc, k]
	if (nmet) close_counters(loc, k, r)
	d = t - stk_t[loc, k]
	calls[loc, r]++
	excl[loc, r] += d - stk_child[loc, k]
	if (open_n[loc, r] == 1) incl[loc, r] += d
	open_n[loc, r]--
	depth[loc] = k - 1
	if (k > 1) stk_child[loc, k - 1] += d
	seen[loc, r] = 1
}
$1 ~ /^[A-Z_]+$/ && $2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/ {
	loc = $2; t = ticks($3)
	last[loc] = t
	if ($1 == "METRIC" && nmet) metric_values(loc, $0)
	if ($1 == "ENTER" || $1 == "LEAVE") {
		s = $0; sub(/.*Region: "/, "", s)
		ref = s; sub(/.*" </, "", ref); sub(/>.*/, "", ref)
		sub(/" <[0-9]+>[^"]*$/, "", s)
		name[ref] = s
	}
	if ($1 == "ENTER") {
		k = ++depth[loc]
		stk_reg[loc, k] = ref; stk_t[loc, k] = t; stk_child[loc, k] = 0
		open_n[loc, ref]++
		for (i = 1; i <= nmet; i++)
			if (have[loc, met[i]]) { at[loc, k, met[i]] = cur[loc, met[i]]; mchild[loc, k, met[i]] = 0 }
	} else if ($1 == "LEAVE" && depth[loc] > 0) close_top(loc, t)
}
END {
	for (loc in depth) while (depth[loc] > 0) close_top(loc, last[loc])
	if (nmet) {
		for (key in mseen) {
			split(key, p, SUBSEP)
			who = p[1]
			if (byrank != "") { if (!(p[1] in rank_of)) continue; who = rank_of[p[1]] }
			k3 = who SUBSEP p[2] SUBSEP p[3]
			MC[k3] += mcalls[key]; ME[k3] += mexcl[key]; MI[k3] += mincl[key]
		}
		for (k3 in MC) { split(k3, p, SUBSEP); printf "%s\t%s\t%s\t%d\t%.0f\t%.0f\n", p[1], name[p[2]], p[3], MC[k3], ME[k3], MI[k3] }
		exit
	}
	for (key in seen) {
		split(key, p, SUBSEP)
		who = p[1]
		if (byrank != "") { if (!(p[1] in rank_of)) continue; who = rank_of[p[1]] }
		k2 = who SUBSEP p[2]
		C[k2] += calls[key]; E[k2] += excl[key]; I[k2] += incl[key]
	}
	for (k2 in C) { split(k2, p, SUBSEP); printf "%s\t%s\t%d\t%.0f\t%.0f\n", p[1], name[p[2]], C[k2], E[k2], I[k2] }
}
