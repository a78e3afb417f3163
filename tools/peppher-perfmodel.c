/*
 * peppher-perfmodel: list, show, plot and reset the performance models the
 * runtime stores under $PEPPHER_HOME/perfmodels/HOST/.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "internal.h"
#include "perfmodel.h"

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: peppher-perfmodel [-d DIR] COMMAND [CODELET]\n"
		"Inspect the performance models of PEPPHER-C.\n\n"
		"  list             list the stored models\n"
		"  show CODELET     history per variant and footprint, and the regression\n"
		"  plot CODELET     write CODELET.gp and CODELET.dat (gnuplot: time against size)\n"
		"  reset CODELET    delete the model (the next runs calibrate again)\n\n"
		"  -d, --dir=DIR    models folder (default: $PEPPHER_HOME/perfmodels/HOST)\n"
		"  -h, --help       show this help\n"
		"  -V, --version    show the version\n\n"
		"Programs on libpeppher-starpu keep StarPU's models instead (under\n"
		"$PEPPHER_HOME/starpu): StarPU's starpu_perfmodel_display reads them.\n");
}

/* the runtime's file name: a name with '/' or ".." stays in dir */
static char *model_path(const char *dir, const char *codelet)
{
	return pph__perfmodel_path(dir, codelet, "model");
}

static struct pph_pm_model *load(const char *dir, const char *codelet)
{
	char *path = model_path(dir, codelet);
	struct pph_pm_model *m = path ? pph__perfmodel_read(path) : NULL;

	if (!m && path && access(path, F_OK) != 0)
		fprintf(stderr, "peppher-perfmodel: no model '%s' in %s\n", codelet, dir);
	free(path);
	return m;
}

static int cmd_list(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d) {
		fprintf(stderr, "peppher-perfmodel: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	printf("%-32s %8s %8s %10s\n", "codelet", "variants", "sizes", "samples");
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char name[256];
		struct pph_pm_model *m;
		const struct pph_pm_variant *v;
		const struct pph_pm_entry *en;
		unsigned nv = 0, ne = 0;
		unsigned long samples = 0;

		if (len < 7 || len - 6 >= sizeof(name) || strcmp(e->d_name + len - 6, ".model"))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(len - 6), e->d_name);
		if (!(m = load(dir, name)))
			continue;
		for (v = m->variants; v; v = v->next, nv++)
			for (en = v->entries; en; en = en->next, ne++)
				samples += en->count;
		printf("%-32s %8u %8u %10lu\n", m->codelet, nv, ne, samples);
		pph__perfmodel_free(m);
	}
	closedir(d);
	return 0;
}

static int cmd_show(const char *dir, const char *codelet)
{
	struct pph_pm_model *m = load(dir, codelet);
	struct pph_pm_variant *v;
	const struct pph_pm_entry *e;

	if (!m)
		return 1;
	printf("codelet %s\n", m->codelet);
	for (v = m->variants; v; v = v->next) {
		printf("\nvariant %s on %s", v->name, pph_arch_name(v->arch));
		if (v->threads > 1)
			printf(", a team of %u CPU workers", v->threads);
		printf("\n");
		if (v->setup_us > 0)
			printf("  setup: %.3f us before its first run on a device in a process\n",
			       v->setup_us);
		/* firsts: of count, runs that were a process's only one;
		 * slowest: of count, "-" where not known (an older file);
		 * size: the call's data in bytes, or its work (workSize) */
		printf("  %-10s %14s %8s %14s %12s %8s %8s %14s\n", "footprint", "size",
		       "count", "mean (us)", "stddev", "outliers", "firsts", "slowest (us)");
		for (e = v->entries; e; e = e->next) {
			printf("  %08x   %14.0f %8lu %14.3f %12.3f %8lu %8lu", e->footprint,
			       e->size, e->count, e->mean,
			       e->count > 1 ? sqrt(e->m2 / (double)(e->count - 1)) : 0.0,
			       e->outliers, e->firsts);
			if (e->slowest > 0)
				printf(" %14.3f\n", e->slowest);
			else
				printf(" %14s\n", "-");
		}
		/* the file does not say which kind the codelet uses: both fits */
		pph__perfmodel_fit(v, 1);
		if (v->reg.valid)
			printf("  regression: t = %.6g * size^%.4f + %.4g us (%u sizes; the default and useNLRegressionModels)\n",
			       v->reg.a, v->reg.b, v->reg.c, v->reg.npoints);
		else
			printf("  regression: needs 3 calibrated sizes (has %u)\n",
			       v->reg.npoints);
		pph__perfmodel_fit(v, 0);
		if (v->reg.valid)
			printf("  regression: t = %.6g * size^%.4f us (useRegressionModels)\n",
			       v->reg.a, v->reg.b);
	}
	printf("\nsize: the call's data in bytes, or its work where its interface gives workSize\n");
	pph__perfmodel_free(m);
	return 0;
}

static int cmd_plot(const char *dir, const char *codelet)
{
	struct pph_pm_model *m = load(dir, codelet);
	struct pph_pm_variant *v;
	const struct pph_pm_entry *e;
	char dat[512], gp[512];
	FILE *fd, *fg;
	int block = 0;

	if (!m)
		return 1;
	snprintf(dat, sizeof(dat), "%s.dat", codelet);
	snprintf(gp, sizeof(gp), "%s.gp", codelet);
	fd = fopen(dat, "w");
	fg = fopen(gp, "w");
	if (!fd || !fg) {
		fprintf(stderr, "peppher-perfmodel: cannot write %s\n", !fd ? dat : gp);
		return 1;
	}
	fprintf(fg, "# gnuplot %s: writes %s.png\n", gp, codelet);
	fprintf(fg, "set terminal png size 900,600\nset output '%s.png'\n", codelet);
	fprintf(fg, "set logscale xy\nset xlabel 'size (data bytes, or workSize)'\n"
		    "set ylabel 'time (us)'\nset title 'performance model of %s'\n"
		    "set key left top\nplot ", codelet);
	for (v = m->variants; v; v = v->next, block++) {
		fprintf(fd, "# %s %s x%u\n", v->name, pph_arch_name(v->arch), v->threads);
		for (e = v->entries; e; e = e->next)
			fprintf(fd, "%.17g %.17g %.17g\n", e->size, e->mean,
				e->count > 1 ? sqrt(e->m2 / (double)(e->count - 1)) : 0.0);
		fprintf(fd, "\n\n");
		pph__perfmodel_fit(v, 1);
		fprintf(fg, "%s'%s' index %d with yerrorbars title '%s (%s",
			block ? ", \\\n     " : "", dat, block, v->name, pph_arch_name(v->arch));
		if (v->threads > 1)
			fprintf(fg, " x%u", v->threads);
		fprintf(fg, ")'");
		if (v->reg.valid)
			fprintf(fg, ", \\\n     %.17g*x**%.17g+%.17g title '%s regression'",
				v->reg.a, v->reg.b, v->reg.c, v->name);
	}
	fprintf(fg, "\n");
	fclose(fd);
	fclose(fg);
	printf("wrote %s and %s; run: gnuplot %s\n", gp, dat, gp);
	pph__perfmodel_free(m);
	return 0;
}

static int cmd_reset(const char *dir, const char *codelet)
{
	char *path = model_path(dir, codelet);
	int rc = path && unlink(path) == 0 ? 0 : 1;

	if (rc)
		fprintf(stderr, "peppher-perfmodel: cannot remove %s: %s\n",
			path ? path : codelet, strerror(errno));
	else
		printf("removed %s\n", path);
	free(path);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	char *dir = NULL;
	const char *cmd;
	int c, rc;

	while ((c = getopt_long(argc, argv, "d:hV", longopts, NULL)) != -1) {
		if (c == 'd') {
			free(dir);
			dir = strdup(optarg);
		} else if (c == 'V') {
			printf("peppher-perfmodel (PEPPHER-C) %s\n", PACKAGE_VERSION);
			free(dir);
			return 0;
		} else {
			usage(c == 'h' ? stdout : stderr);
			return c == 'h' ? 0 : 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	if (!dir && !(dir = pph__perfmodel_dir())) {
		fprintf(stderr, "peppher-perfmodel: no models folder: PEPPHER_HOME is not set and HOME=%s is not an absolute path to an existing folder; set PEPPHER_HOME or give --dir\n",
			getenv("HOME") ? getenv("HOME") : "(unset)");
		return 1;
	}
	cmd = argv[optind];
	if (strcmp(cmd, "list") == 0 && optind + 1 == argc)
		rc = cmd_list(dir);
	else if (optind + 2 != argc)
		rc = (usage(stderr), 2);
	else if (strcmp(cmd, "show") == 0)
		rc = cmd_show(dir, argv[optind + 1]);
	else if (strcmp(cmd, "plot") == 0)
		rc = cmd_plot(dir, argv[optind + 1]);
	else if (strcmp(cmd, "reset") == 0)
		rc = cmd_reset(dir, argv[optind + 1]);
	else
		rc = (usage(stderr), 2);
	free(dir);
	return rc;
}
