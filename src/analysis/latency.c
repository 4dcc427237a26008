/* latency.c — message transfer times, latency criteria (paper §4.1, Fig. 2),
 * message latency L and region latency RL (Eq. 1, 2), and the assembly of
 * regions and evolution into one struct tc_latency. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_latency.h"
#include "latency_internal.h"
#include "u64map.h"

void tc_latency_default_opts(struct tc_latency_opts *o)
{
	memset(o, 0, sizeof *o);
	o->buckets = TC_LAT_BUCKETS_LOG2;
	o->bucket_bytes = 50;
	o->min_count = 5;
	o->high_l = 2.0;
	o->threshold = 2.0;
	o->margin = 0.5;
	o->damping = 0.8;
	o->depth = 3;
	o->balanced = true;
	o->weight = TC_LAT_W_MESSAGES;
	o->ball_max = 64;
	o->tol = 1e-10;
	o->windows = 0;
	o->steady_level = 1.2;
	o->steady_min = 3;
	o->growth_min = 0.2;
	o->threads = 0;
}

/* --- buckets ----------------------------------------------------------------- */
static uint64_t bucket_key(const struct tc_latency_opts *o, uint64_t bytes)
{
	if (o->buckets == TC_LAT_BUCKETS_LINEAR) return bytes / (o->bucket_bytes ? o->bucket_bytes : 50);
	return tc_bit_width(bytes);   /* 0 → 0 bytes; k ≥ 1 → [2^(k-1), 2^k − 1] */
}

static void bucket_range(const struct tc_latency_opts *o, uint64_t key, uint64_t *lo, uint64_t *hi)
{
	if (o->buckets == TC_LAT_BUCKETS_LINEAR) {
		uint64_t w = o->bucket_bytes ? o->bucket_bytes : 50;
		*lo = key * w;
		*hi = key * w + w - 1;
	} else if (key == 0) {
		*lo = *hi = 0;
	} else {
		*lo = (uint64_t)1 << (key - 1);
		*hi = key >= 64 ? UINT64_MAX : ((uint64_t)1 << key) - 1;
	}
}

/* Position on the interpolation axis: log2 of the bucket's middle size. */
static double bucket_x(const struct tc_lat_bucket *b)
{
	double mid = ((double)b->lo + (double)b->hi) / 2;
	return log2(mid + 1);
}

static double interp(const struct tc_lat_bucket *b, uint32_t nb, double x, uint32_t min_count, double fallback)
{
	int left = -1, right = -1;
	for (uint32_t i = 0; i < nb; i++) {
		if (b[i].count < min_count) continue;
		double bx = bucket_x(&b[i]);
		if (bx <= x) left = (int)i;
		else if (right < 0) right = (int)i;
	}
	if (left >= 0 && right >= 0) {
		double x0 = bucket_x(&b[left]), x1 = bucket_x(&b[right]);
		double f = x1 > x0 ? (x - x0) / (x1 - x0) : 0;
		return b[left].median + f * (b[right].median - b[left].median);
	}
	if (left >= 0) return b[left].median;
	if (right >= 0) return b[right].median;
	return fallback;
}

double tc_lat_criterion(const struct tc_latency *lat, enum tc_lat_class c, uint64_t bytes)
{
	uint64_t key = bucket_key(&lat->opts, bytes), lo, hi;
	bucket_range(&lat->opts, key, &lo, &hi);
	const struct tc_lat_bucket *b = lat->criteria[c];
	for (uint32_t i = 0; i < lat->nbuckets[c]; i++)
		if (b[i].lo == lo) return b[i].criterion;
	struct tc_lat_bucket probe = { .lo = lo, .hi = hi };
	double fb = NAN;
	/* no bucket in this class at all: the other class's criteria */
	if (!lat->nbuckets[c]) return lat->nbuckets[!c] ? tc_lat_criterion(lat, (enum tc_lat_class)!c, bytes) : NAN;
	fb = b[0].criterion;
	return interp(b, lat->nbuckets[c], bucket_x(&probe), lat->opts.min_count ? lat->opts.min_count : 1, fb);
}

struct lgroup { uint64_t key; uint8_t cls; uint32_t count, first, id; };

static int cmp_lgroup(const void *a, const void *b)
{
	const struct lgroup *x = a, *y = b;
	if (x->cls != y->cls) return x->cls < y->cls ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* Each class's median transfer time, the fallback of its buckets with fewer
 * than minc messages (interp): computed only for a class that has such a
 * bucket (a selection over all its messages, most of them, for nothing
 * else).  g: the groups in (class, key) order, sliced in tr. */
static void class_medians(const struct lgroup *g, size_t ng, double *tr, uint32_t minc, double *class_median)
{
	for (size_t q = 0; q < ng;) {
		size_t e = q;
		bool needed = false;
		for (; e < ng && g[e].cls == g[q].cls; e++) needed |= g[e].count < minc;
		uint32_t from = g[q].first, to = g[e - 1].first + g[e - 1].count;
		if (needed) class_median[g[q].cls] = tc_median(tr + from, to - from);
		q = e;
	}
}

/* Per class and size bucket the median transfer time: messages grouped by
 * (class, bucket) with a hash map and a counting sort, medians by selection
 * (linear; the same values a full sort would give). */
static void compute_criteria(struct tc_latency *lat)
{
	const struct tc_trace *t = lat->t;
	const struct tc_latency_opts *o = &lat->opts;
	size_t m = t->nmsgs;
	uint32_t *gid = xmalloc((m ? m : 1) * sizeof *gid);
	struct u64map map;
	u64map_init(&map);
	VEC(struct lgroup) g = { 0 };
	uint64_t last_mk = UINT64_MAX;   /* runs of one size and class: the map asked once per run */
	uint32_t id = TC_NONE;
	for (size_t i = 0; i < m; i++) {
		uint64_t key = bucket_key(o, t->msgs[i].bytes);
		uint64_t mk = key << 1 | lat->cls[i];
		if (mk != last_mk) id = u64map_get(&map, mk);
		last_mk = mk;
		if (id == TC_NONE) {
			id = (uint32_t)g.n;
			u64map_put(&map, mk, id);
			struct lgroup ng = { .key = key, .cls = lat->cls[i], .id = id };
			VEC_PUSH(g, ng);
		}
		g.a[id].count++;
		gid[i] = id;
	}
	u64map_free(&map);
	if (g.n) qsort(g.a, g.n, sizeof *g.a, cmp_lgroup);
	/* pos[id] = position of group id in (class, key) order; tr is sliced in that order */
	uint32_t *pos = xmalloc((g.n ? g.n : 1) * sizeof *pos);
	uint32_t *fill = xmalloc((g.n ? g.n : 1) * sizeof *fill);
	uint32_t first = 0;
	for (size_t q = 0; q < g.n; q++) {
		pos[g.a[q].id] = (uint32_t)q;
		g.a[q].first = first;
		fill[q] = first;
		first += g.a[q].count;
	}
	double *tr = xmalloc((m ? m : 1) * sizeof *tr);
	for (size_t i = 0; i < m; i++) tr[fill[pos[gid[i]]]++] = lat->transfer[i];
	VEC(struct tc_lat_bucket) v[TC_LAT_NCLASS] = { { 0 } };
	double class_median[TC_LAT_NCLASS] = { NAN, NAN };
	uint32_t *index_in_class = fill; /* reused: per group position, its bucket index in its class */
	for (size_t q = 0; q < g.n; q++) {
		const struct lgroup *G = &g.a[q];
		struct tc_lat_bucket bk = { .count = G->count };
		bucket_range(o, G->key, &bk.lo, &bk.hi);
		bk.median = tc_median(tr + G->first, G->count);
		index_in_class[q] = (uint32_t)v[G->cls].n;
		VEC_PUSH(v[G->cls], bk);
	}
	class_medians(g.a, g.n, tr, o->min_count ? o->min_count : 1, class_median);
	for (size_t i = 0; i < m; i++) lat->bucket[i] = index_in_class[pos[gid[i]]];
	free(tr);
	free(pos);
	free(fill);
	free(gid);
	VEC_FREE(g);
	uint32_t minc = o->min_count ? o->min_count : 1;
	for (int c = 0; c < TC_LAT_NCLASS; c++) {
		lat->nbuckets[c] = (uint32_t)v[c].n;
		lat->criteria[c] = v[c].a;
		struct tc_lat_bucket *b = v[c].a;
		for (uint32_t i = 0; i < lat->nbuckets[c]; i++) {
			if (b[i].count >= minc) { b[i].criterion = b[i].median; continue; }
			b[i].interpolated = true;
			double fb = class_median[c];
			b[i].criterion = interp(b, lat->nbuckets[c], bucket_x(&b[i]), minc, fb);
		}
	}
}

/* --- regions ------------------------------------------------------------------ */
static uint32_t effective_depth(const struct tc_sparse *g, uint32_t depth)
{
	/* work of the path enumeration; reduce the depth bound when it would be too much */
	const double budget = 4e8;
	for (; depth > 1; depth--) {
		double work = 0;
		for (uint32_t p = 0; p < g->n; p++)
			for (uint32_t i = g->row[p]; i < g->row[p + 1]; i++) {
				uint32_t x = g->col[i];
				double dx = g->row[x + 1] - g->row[x];
				if (depth == 2) { work += dx; continue; }
				for (uint32_t j = g->row[x]; j < g->row[x + 1]; j++) {
					uint32_t y = g->col[j];
					work += g->row[y + 1] - g->row[y];
				}
				if (work > budget) break;
			}
		if (work <= budget) break;
	}
	return depth;
}

static void compute_regions(struct tc_latency *lat)
{
	const struct tc_trace *t = lat->t;
	double t0 = tc_now();
	struct tc_sparse g = { 0 }, r = { 0 };
	tc_comm_graph(t, lat->opts.weight, &g);
	lat->depth_used = effective_depth(&g, lat->opts.depth);
	tc_process_correlation(&g, lat->depth_used, lat->opts.balanced, lat->opts.ball_max - 1, &r);
	struct tc_fe_pair *pairs = NULL;
	lat->npairs = tc_free_energy(&r, &lat->opts, &pairs);
	lat->rank_region = xmalloc((t->nranks ? t->nranks : 1) * sizeof *lat->rank_region);
	/* the threshold follows the typical nearest-partner distance (docs/latency.md) */
	double *nn = xmalloc((t->nranks ? t->nranks : 1) * sizeof *nn);
	for (uint32_t i = 0; i < t->nranks; i++) nn[i] = INFINITY;
	for (size_t i = 0; i < lat->npairs; i++) {
		nn[pairs[i].p] = TC_MIN(nn[pairs[i].p], pairs[i].d);
		nn[pairs[i].q] = TC_MIN(nn[pairs[i].q], pairs[i].d);
	}
	uint32_t k = 0;
	for (uint32_t i = 0; i < t->nranks; i++)
		if (isfinite(nn[i])) nn[k++] = nn[i];
	qsort(nn, k, sizeof *nn, tc_cmp_double);
	lat->nearest_median = k ? (k % 2 ? nn[k / 2] : (nn[k / 2 - 1] + nn[k / 2]) / 2) : NAN;
	free(nn);
	lat->threshold_used = lat->opts.threshold;
	if (lat->opts.margin >= 0 && k)
		lat->threshold_used = TC_MAX(lat->threshold_used, lat->nearest_median + lat->opts.margin);
	double *mm = NULL;
	lat->nregions = tc_single_linkage(t->nranks, pairs, lat->npairs, lat->threshold_used, lat->rank_region, &mm);
	lat->regions = xcalloc(lat->nregions ? lat->nregions : 1, sizeof *lat->regions);
	for (uint32_t i = 0; i < t->nranks; i++) lat->regions[lat->rank_region[i]].nranks++;
	for (uint32_t i = 0; i < lat->nregions; i++) {
		lat->regions[i].ranks = xmalloc(lat->regions[i].nranks * sizeof(uint32_t));
		lat->regions[i].max_merge = mm[i];
		lat->regions[i].nranks = 0;
	}
	for (uint32_t i = 0; i < t->nranks; i++) {
		struct tc_lat_region *R = &lat->regions[lat->rank_region[i]];
		R->ranks[R->nranks++] = i;
	}
	uint8_t *seen = xcalloc(t->nnodes ? t->nnodes : 1, 1);
	for (uint32_t i = 0; i < lat->nregions; i++) {
		struct tc_lat_region *R = &lat->regions[i];
		for (uint32_t x = 0; x < R->nranks; x++) {
			uint32_t nd = t->ranks[R->ranks[x]].node;
			if (nd < t->nnodes && !seen[nd]) { seen[nd] = 1; R->nnodes++; }
		}
		for (uint32_t x = 0; x < R->nranks; x++) {
			uint32_t nd = t->ranks[R->ranks[x]].node;
			if (nd < t->nnodes) seen[nd] = 0;
		}
	}
	free(seen);
	free(mm);
	free(pairs);
	tc_sparse_free(&g);
	tc_sparse_free(&r);
	lat->regions_seconds = tc_now() - t0;
}

/* --- assembly ------------------------------------------------------------------- */
static uint32_t auto_windows(size_t nmsgs)
{
	uint32_t w = (uint32_t)lround(sqrt((double)nmsgs));
	return w < 4 ? 4 : w > 64 ? 64 : w;
}

/* Out-of-range options fall back to their defaults (or the nearest valid value). */
static void sanitize(struct tc_latency_opts *o)
{
	struct tc_latency_opts d;
	tc_latency_default_opts(&d);
	if (o->buckets != TC_LAT_BUCKETS_LINEAR) o->buckets = TC_LAT_BUCKETS_LOG2;
	if (!o->bucket_bytes) o->bucket_bytes = d.bucket_bytes;
	if (!o->min_count) o->min_count = 1;
	if (!(o->high_l > 0)) o->high_l = d.high_l;
	if (!(o->threshold >= 0)) o->threshold = d.threshold;
	if (isnan(o->margin)) o->margin = d.margin;
	if (!(o->damping > 0 && o->damping < 1)) o->damping = d.damping;
	o->depth = TC_MAX(1, TC_MIN(3, o->depth));
	if (o->weight != TC_LAT_W_BYTES && o->weight != TC_LAT_W_BINARY) o->weight = TC_LAT_W_MESSAGES;
	if (o->ball_max < 2) o->ball_max = 2;
	if (!(o->tol > 0)) o->tol = d.tol;
	if (o->windows > 10000) o->windows = 10000;
	if (isnan(o->steady_level)) o->steady_level = d.steady_level;
	if (!o->steady_min) o->steady_min = 1;
	if (!(o->growth_min >= 0)) o->growth_min = d.growth_min;
}

double tc_lat_raw(const struct tc_latency *lat, size_t i)
{
	const struct tc_trace *t = lat->t;
	const struct tc_msg *g = &t->msgs[i];
	return g->recv_time >= g->send_time ? tc_dur(t, g->recv_time - g->send_time)
					    : -tc_dur(t, g->send_time - g->recv_time);
}

/* Per message: transfer time, class; then the criteria per
 * (class, size bucket) and each message's latency l = transfer / criterion. */
static void message_latencies(struct tc_latency *lat)
{
	const struct tc_trace *t = lat->t;
	size_t m = t->nmsgs, m1 = m ? m : 1;
	lat->transfer = xmalloc(m1 * sizeof *lat->transfer);
	lat->l = xmalloc(m1 * sizeof *lat->l);
	lat->bucket = xmalloc(m1 * sizeof *lat->bucket);
	lat->cls = xmalloc(m1 * sizeof *lat->cls);
	lat->window = xmalloc(m1 * sizeof *lat->window);
	for (size_t i = 0; i < m; i++) {
		const struct tc_msg *g = &t->msgs[i];
		uint64_t start = TC_MAX(g->send_time, g->post_time);
		lat->transfer[i] = g->recv_time > start ? tc_dur(t, g->recv_time - start) : 0.0;
		lat->cls[i] = tc_same_node(t, g->src, g->dst) ? TC_LAT_INTRA : TC_LAT_INTER;
	}
	compute_criteria(lat);
	double floor_s = 1.0 / (double)t->res;
	double suml = 0;
	for (size_t i = 0; i < m; i++) {
		double c = lat->criteria[lat->cls[i]][lat->bucket[i]].criterion;
		lat->l[i] = lat->transfer[i] / TC_MAX(c, floor_s);
		suml += lat->l[i];
		lat->delayed += lat->l[i] > 1.0;
		lat->high += lat->l[i] >= lat->opts.high_l;
	}
	lat->mean_l = m ? suml / (double)m : NAN;
}

/* Message i into its window: the run's, its class's, and its region's when
 * both ends are in one region (else it crosses both); sum_touch: latency
 * summed per region over the messages touching it. */
static void window_add(struct tc_latency *lat, size_t i, uint64_t w, double *sum_touch)
{
	const struct tc_msg *g = &lat->t->msgs[i];
	double high = lat->opts.high_l;
	bool inter = lat->cls[i] == TC_LAT_INTER;
	double l = lat->l[i], tr = lat->transfer[i];
	lat_win_add(&lat->win_all[w], l, tr, inter, high);
	lat_win_add(&lat->win_class[w * 2 + lat->cls[i]], l, tr, inter, high);
	uint32_t ra = lat->rank_region[g->src], rb = lat->rank_region[g->dst];
	if (ra == rb) {
		struct tc_lat_region *R = &lat->regions[ra];
		R->messages_inside++;
		R->inter_inside += inter;
		R->delayed += l > 1.0;
		R->high += l >= high;
		R->rl += l;
		sum_touch[ra] += l;
		lat_win_add(&R->win[w], l, tr, inter, high);
	} else {
		lat->regions[ra].messages_crossing++;
		lat->regions[rb].messages_crossing++;
		sum_touch[ra] += l;
		sum_touch[rb] += l;
	}
}

/* Windows over the analysed span, by receive completion: every message
 * added to its window, then each window's, region's and the run's summary
 * and the periods (temporal evolution). */
static void windows(struct tc_latency *lat)
{
	const struct tc_trace *t = lat->t;
	const struct tc_latency_opts *op = &lat->opts;
	size_t m = t->nmsgs;
	uint32_t W = op->windows ? op->windows : auto_windows(m);
	lat->nwindows = W;
	bool given = op->win_t1 > op->win_t0;
	lat->win_t0 = given ? op->win_t0 : t->tmin;
	uint64_t end = given ? op->win_t1 : t->tmax;
	uint64_t span = end > lat->win_t0 ? end - lat->win_t0 + 1 : 1;
	lat->win_dt = (span + W - 1) / W;
	if (!lat->win_dt) lat->win_dt = 1;
	lat->win_all = xcalloc(W, sizeof *lat->win_all);
	lat->win_class = xcalloc((size_t)W * 2, sizeof *lat->win_class);
	for (uint32_t i = 0; i < lat->nregions; i++) lat->regions[i].win = xcalloc(W, sizeof(struct tc_lat_win));
	double *sum_touch = xcalloc(lat->nregions ? lat->nregions : 1, sizeof *sum_touch);
	for (size_t i = 0; i < m; i++) {
		uint64_t rt = t->msgs[i].recv_time > lat->win_t0 ? t->msgs[i].recv_time - lat->win_t0 : 0;
		uint64_t w = rt / lat->win_dt;
		if (w >= W) w = W - 1;
		lat->window[i] = (uint32_t)w;
		window_add(lat, i, w, sum_touch);
	}
	lat_win_finish(lat->win_all, W);
	lat_win_finish(lat->win_class, (size_t)W * 2);
	for (uint32_t i = 0; i < lat->nregions; i++) {
		struct tc_lat_region *R = &lat->regions[i];
		R->rl = R->messages_inside ? R->rl / (double)R->messages_inside : NAN;
		uint64_t nt = R->messages_inside + R->messages_crossing;
		R->rl_touching = nt ? sum_touch[i] / (double)nt : NAN;
		lat_win_finish(R->win, W);
		R->nperiods = tc_lat_periods(R->win, W, op, &R->periods);
	}
	free(sum_touch);
	lat->nperiods_all = tc_lat_periods(lat->win_all, W, op, &lat->periods_all);
}

struct tc_latency *tc_latency_compute(const struct tc_trace *t, const struct tc_latency_opts *o)
{
	struct tc_latency *lat = xcalloc(1, sizeof *lat);
	if (o) lat->opts = *o;
	else tc_latency_default_opts(&lat->opts);
	sanitize(&lat->opts);
	lat->t = t;
	message_latencies(lat);
	compute_regions(lat);
	windows(lat);
	return lat;
}

void tc_latency_free(struct tc_latency *lat)
{
	if (!lat) return;
	free(lat->transfer);
	free(lat->l);
	free(lat->bucket);
	free(lat->cls);
	free(lat->window);
	for (int c = 0; c < TC_LAT_NCLASS; c++) free(lat->criteria[c]);
	for (uint32_t i = 0; i < lat->nregions; i++) {
		free(lat->regions[i].ranks);
		free(lat->regions[i].win);
		free(lat->regions[i].periods);
	}
	free(lat->regions);
	free(lat->rank_region);
	free(lat->win_all);
	free(lat->win_class);
	free(lat->periods_all);
	free(lat);
}
