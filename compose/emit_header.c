/* peppher.h: the one header the application includes. */
#include <stdlib.h>

#include "emit.h"
#include "util.h"

void emit_header(struct gen *g)
{
	struct out o;
	size_t i;

	if (gen_open(g, &o, "peppher.h", "/*") != 0)
		return;
	out_line(&o, "#ifndef PEPPHER_H");
	out_line(&o, "#define PEPPHER_H");
	out_blank(&o);
	out_line(&o, "#include <stdio.h>");
	out_line(&o, "#include <string.h>");
	out_blank(&o);
	out_line(&o, "#include <peppher/runtime.h>");
	out_line(&o, "#include <peppher/containers.h>");
	out_blank(&o);
	out_line(&o, "#ifdef __cplusplus");
	out_line(&o, "extern \"C\" {");
	out_line(&o, "#endif");
	for (i = 0; i < g->m->nifaces; i++) {
		const struct iface *ifc = g->m->ifaces[i];
		char *sig = c_signature(ifc, ifc->name, 0);

		out_blank(&o);
		out_line(&o, "/* %s */", path_basename(ifc->path));
		out_line(&o, "%s;", sig);
		free(sig);
	}
	out_blank(&o);
	out_line(&o, "#ifdef __cplusplus");
	out_line(&o, "}");
	out_line(&o, "#endif");
	out_blank(&o);
	out_line(&o, "/* Start the runtime; component calls fail (and say so) if it did not. */");
	out_line(&o, "#define PEPPHER_INITIALIZE() \\");
	out_line(&o, "\tdo { \\");
	out_line(&o, "\t\tint pph_rc_ = pph_init(); \\");
	out_line(&o, "\t\tif (pph_rc_ != 0) \\");
	out_line(&o, "\t\t\tfprintf(stderr, \"peppher: initialization failed: %%s\\n\", \\");
	out_line(&o, "\t\t\t\tstrerror(-pph_rc_)); \\");
	out_line(&o, "\t} while (0)");
	out_blank(&o);
	out_line(&o, "/* Wait for every component call and stop the runtime. */");
	out_line(&o, "#define PEPPHER_SHUTDOWN() pph_shutdown()");
	out_blank(&o);
	out_line(&o, "#endif /* PEPPHER_H */");
	gen_close(g, &o, "peppher.h");
}
