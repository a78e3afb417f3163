/*
 * libFuzzer target: any bytes as a main descriptor, loaded, expanded and
 * analysed the way compose's main does (the output stage is left out: it
 * only writes what the IR says), and as a constraint expression.  Built
 * and run by scripts/fuzz, whose short run in make check-long keeps this
 * file building as those stages change.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>

#include "check.h"
#include "classify.h"
#include "constraint.h"
#include "diag.h"
#include "expand.h"
#include "load.h"
#include "narrow.h"
#include "order.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	static char path[64];
	struct narrowing nw = { 0xf, 0, NULL, 0, MODEL_DEFAULT };
	struct model m = { 0 };
	FILE *fp;

	if (!devnull) {
		devnull = fopen("/dev/null", "w");
		snprintf(path, sizeof(path), "/tmp/fuzz-main-%ld.xml", (long)getpid());
	}
	fp = fopen(path, "wb");
	if (!fp)
		return 0;
	fwrite(data, 1, size, fp);
	fclose(fp);
	diag_reset(devnull);
	if (load_model(&m, path, NULL, 0, NULL) == 0 && expand_generics(&m) == 0) {
		/* as main's analyse: every stage, whatever the ones before said */
		check_model(&m);
		classify_model(&m);
		narrow_model(&m, &nw);
		order_model(&m);
	}
	model_free(&m);
	{	/* the same bytes as a constraint expression */
		char *text = strndup((const char *)data, size);
		struct loc loc = { "fuzz", 1 };
		struct cexpr *e = text ? cexpr_parse(text, &loc) : NULL;

		cexpr_free(e);
		free(text);
	}
	return 0;
}
