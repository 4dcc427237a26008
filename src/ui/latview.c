/* latview.c — what the regions and evolution views draw from (struct
 * tc_latview): the regions ordered by RL, the colour ranges and the traffic
 * matrix of the regions that exchange most, built once from session_latency()
 * in O(regions log regions + messages).  Its own module so the app and the
 * views only meet through include/ui.h (app_latview). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_latency.h"
#include "ui.h"

struct keyed { double k; uint32_t id; };

/* Larger key first (NaN last), ties by id. */
static int cmp_keyed(const void *x, const void *y)
{
	const struct keyed *p = x, *q = y;
	bool pn = isnan(p->k), qn = isnan(q->k);
	if (pn != qn) return pn ? 1 : -1;
	if (!pn && p->k != q->k) return p->k > q->k ? -1 : 1;
	return p->id < q->id ? -1 : p->id > q->id;
}

static void upd_max(double *m, double v)
{
	if (isfinite(v) && v > *m) *m = v;
}

struct tc_latview *latview_build(const struct tc_latency *lat)
{
	struct tc_latview *v = xcalloc(1, sizeof *v);
	v->lat = lat;
	if (!lat) return v;
	uint32_t n = lat->nregions;
	struct keyed *k = xmalloc(((size_t)n + 1) * sizeof *k);
	for (uint32_t i = 0; i < n; i++) k[i] = (struct keyed){ lat->regions[i].messages_inside ? lat->regions[i].rl : NAN, i };
	qsort(k, n, sizeof *k, cmp_keyed);
	v->order = xmalloc(((size_t)n + 1) * sizeof *v->order);
	for (uint32_t i = 0; i < n; i++) {
		v->order[i] = k[i].id;
		if (lat->regions[k[i].id].messages_inside) v->nwith = i + 1;
		upd_max(&v->rl_max, lat->regions[k[i].id].rl);
	}
	v->rl_min = v->nwith ? lat->regions[v->order[v->nwith - 1]].rl : 0;
	for (uint32_t w = 0; w < lat->nwindows; w++) {
		upd_max(&v->l_max, lat->win_all[w].mean_l);
		for (uint32_t i = 0; i < n; i++)
			if (lat->regions[i].win) upd_max(&v->l_max, lat->regions[i].win[w].mean_l);
	}
	/* traffic matrix: the regions with the most crossing messages */
	for (uint32_t i = 0; i < n; i++) k[i] = (struct keyed){ (double)lat->regions[i].messages_crossing, i };
	qsort(k, n, sizeof *k, cmp_keyed);
	while (v->ntop < TC_LATV_TOP && v->ntop < n && k[v->ntop].k > 0) {
		v->top[v->ntop] = k[v->ntop].id;
		v->ntop++;
	}
	free(k);
	if (v->ntop) {   /* every region's messages to each of the top regions */
		uint8_t *slot = xmalloc((size_t)n + 1);
		memset(slot, 0xff, (size_t)n + 1);
		for (uint32_t i = 0; i < v->ntop; i++) slot[v->top[i]] = (uint8_t)i;
		v->matrix = xcalloc((size_t)n * TC_LATV_TOP + 1, sizeof *v->matrix);
		const struct tc_trace *t = lat->t;
		for (size_t m = 0; m < t->nmsgs; m++) {
			uint32_t s = t->msgs[m].src, d = t->msgs[m].dst;
			if (s >= t->nranks || d >= t->nranks) continue;
			uint32_t from = lat->rank_region[s];
			uint8_t b = slot[lat->rank_region[d]];
			if (b != 0xff && from < n) v->matrix[(size_t)from * TC_LATV_TOP + b]++;
		}
		free(slot);
		for (uint32_t i = 0; i < n; i++)
			for (uint32_t j = 0; j < v->ntop; j++)
				if (i != v->top[j] && v->matrix[(size_t)i * TC_LATV_TOP + j] > v->matrix_max)
					v->matrix_max = v->matrix[(size_t)i * TC_LATV_TOP + j];
	}
	return v;
}

void latview_free(struct tc_latview *v)
{
	if (!v) return;
	free(v->order);
	free(v->matrix);
	free(v);
}

const struct tc_latview *app_latview(struct tc_app *a)
{
	if (!a->latv) a->latv = latview_build(session_latency(a->sess));
	return a->latv;
}

const uint32_t *app_lat_rows(struct tc_app *a, uint32_t *n, uint32_t *nwith)
{
	const struct tc_latview *v = app_latview(a);
	const struct tc_latency *lat = v->lat;
	*n = *nwith = 0;
	if (!lat) return v->order;
	if (a->nvis == a->t->nranks) {
		*n = lat->nregions;
		*nwith = v->nwith;
		return v->order;
	}
	if (!a->latrows.built || a->latrows.gen != a->vis_gen) {
		free(a->latrows.ids);
		a->latrows.ids = xmalloc(((size_t)lat->nregions + 1) * sizeof *a->latrows.ids);
		a->latrows.n = a->latrows.nwith = 0;
		for (uint32_t i = 0; i < lat->nregions; i++) {
			const struct tc_lat_region *R = &lat->regions[v->order[i]];
			bool vis = false;
			for (uint32_t k = 0; k < R->nranks && !vis; k++) vis = app_rank_visible(a, R->ranks[k]);
			if (!vis) continue;
			a->latrows.ids[a->latrows.n++] = v->order[i];
			if (i < v->nwith) a->latrows.nwith = a->latrows.n;
		}
		a->latrows.gen = a->vis_gen;
		a->latrows.built = true;
	}
	*n = a->latrows.n;
	*nwith = a->latrows.nwith;
	return a->latrows.ids;
}
