/* fuzz_theme.c — libFuzzer target: the input is a theme YAML document, parsed
 * by theme_parse (the loader behind --theme).  It must return true or false
 * with one message, quickly, whatever the bytes (depth and size are capped). */
#include <stdlib.h>

#include "archive.h"
#include "ui.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tc_theme th;
	char *err = NULL;
	fz_cpu_begin();
	bool ok = theme_parse(&th, (const char *)data, size, "fuzz.yaml", &err);
	fz_cpu_end();
	if (!ok && !err) abort(); /* a failure always says why */
	free(err);
	return 0;
}
