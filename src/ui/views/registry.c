/* registry.c — the main views, in Tab order; keys 1..9 pick them by position.
 * Adding a view: its own file under src/ui/views/, an id in enum tc_view_id
 * (include/ui.h), its keys in src/ui/keymap.c, and one line here. */
#include <strings.h>

#include "ui.h"

const struct view *const tc_main_views[] = {
	&view_logical,
	&view_physical,
	&view_overview,
	&view_regions,
	&view_evolution,
	&view_waitstates,
	&view_profile,
	&view_verdicts,
	&view_clusters,
	&view_calls,
	&view_dag,
	&view_matrix,
};
const size_t tc_nmain_views = TC_NELEM(tc_main_views);

const struct view *view_find(const char *name)
{
	for (size_t i = 0; i < tc_nmain_views; i++)
		if (!strcasecmp(name, tc_main_views[i]->name)) return tc_main_views[i];
	return NULL;
}

void view_names(struct strbuf *b, const char *sep)
{
	for (size_t i = 0; i < tc_nmain_views; i++) {
		if (i) sb_add(b, sep);
		sb_add(b, tc_main_views[i]->name);
	}
}
