/* marks.c — pieces the timeline views share: the events at the other end of
 * the cursor event's messages and collective (drawn as partners), and the
 * legend line (colour map of the metric, then the glyphs). */
#include <string.h>

#include "ui.h"

uint32_t view_partners(const struct tc_app *a, uint32_t *out, uint32_t max)
{
	uint32_t ce = app_cursor_cev(a), n = 0;
	if (ce == TC_NONE || (a->step & 1) || a->step < 0) return 0;
	const struct tc_steps *st = a->st;
	const struct tc_trace *t = a->t;
	const struct tc_cev *e = &st->cevs[ce];
	for (uint32_t k = 0; k < e->nops && e->op + k < t->ranks[e->rank].nops; k++) {
		const struct tc_op *op = &t->ranks[e->rank].ops[e->op + k];
		const uint32_t *sm = tc_op_sends(t, e->rank, op), *rm = tc_op_recvs(t, e->rank, op);
		for (uint32_t i = 0; i < op->nsend && n < max; i++)
			if (st->msg_recv_cev[sm[i]] != TC_NONE) out[n++] = st->msg_recv_cev[sm[i]];
		for (uint32_t i = 0; i < op->nrecv && n < max; i++)
			if (st->msg_send_cev[rm[i]] != TC_NONE) out[n++] = st->msg_send_cev[rm[i]];
		if (op->coll != TC_NONE && op->coll < t->ncolls) {
			const struct tc_coll *co = &t->colls[op->coll];
			for (uint32_t i = 0; i < co->n && n < max; i++) {
				const struct tc_coll_member *m = &t->coll_members[co->first + i];
				if (m->rank == e->rank) continue;
				uint32_t pe = tc_steps_cev_of_call(st, m->rank, m->call);
				if (pe != TC_NONE) out[n++] = pe;
			}
		}
	}
	return n;
}

int view_legend(struct tc_app *a, struct tc_grid *g, int x, int y, int w, double vmax)
{
	char vbuf[32];
	fmt_seconds(vbuf, sizeof vbuf, vmax);
	int u = grid_printf(g, x, y, w, TC_R_LABEL, "%s 0 ", app_metric_label(a->metric));
	for (int k = 0; k < TC_NMAP && u < w; k++, u++)
		grid_put(g, x + u, y, a->color ? ' ' : grid_glyph(g, k < 3 ? TC_G_SHADE1 : k < 6 ? TC_G_SHADE2 : TC_G_SHADE3),
			 (enum tc_role)(TC_R_MAP0 + k), (enum tc_role)(TC_R_MAP0 + k), 0);
	u += grid_printf(g, x + u, y, w - u, TC_R_LABEL, " %s ", vbuf);
	static const struct { enum tc_glyph gl; const char *name; } keys[] = {
		{ TC_G_SEND, "send" }, { TC_G_RECV, "recv" }, { TC_G_SENDRECV, "both" }, { TC_G_COLL, "coll" },
		{ TC_G_AGG, "agg" },
	};
	for (size_t i = 0; i < TC_NELEM(keys) && u + 2 + (int)strlen(keys[i].name) <= w; i++) {
		u++;
		grid_put(g, x + u++, y, grid_glyph(g, keys[i].gl), TC_R_LABEL, TC_R_NORMAL, 0);
		u += grid_text(g, x + u, y, w - u, TC_R_LABEL, keys[i].name);
	}
	return u;
}
