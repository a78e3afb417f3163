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
		"  -d, --dir=DIR    models folder (default: $PEPPHER_HOME/perfmodels/HOST,\n"
		"                   else ~/.peppher/perfmodels/HOST; HOST: this host's name)\n"
		"  -h, --help       show this help\n"
		"  -V, --version    show the version\n\n"
		"Programs on libpeppher-starpu keep StarPU's models instead, under\n"
		"$PEPPHER_HOME/starpu (else ~/.peppher/starpu), one per codelet and list of\n"
		"variants (symbol peppher.CODELET.HASH).  StarPU's starpu_perfmodel_display\n"
		"(Debian: package starpu-tools) reads them, given that folder:\n"
		"  STARPU_HOME=$PEPPHER_HOME/starpu starpu_perfmodel_display -l\n"
		"  STARPU_HOME=$PEPPHER_HOME/starpu starpu_perfmodel_display -s SYMBOL\n");
}

/* s as a gnuplot string in single quotes, where a quote is doubled and
 * nothing else is special. */
static void put_quoted(FILE *fp, const char *s)
{
	fputc('\'', fp);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', fp);
		fputc(*s, fp);
	}
	fputc('\'', fp);
}

/* A variant's title in a plot: "NAME (ARCH)", "NAME (ARCH xTEAM)" for a
 * team of several, then suffix; quoted. */
static void put_title(FILE *fp, const struct pph_pm_variant *v, const char *suffix)
{
	char title[512];

	if (v->threads > 1)
		snprintf(title, sizeof(title), "%s (%s x%u)%s", v->name, pph_arch_name(v->arch),
			 v->threads, suffix);
	else
		snprintf(title, sizeof(title), "%s (%s)%s", v->name, pph_arch_name(v->arch), suffix);
	put_quoted(fp, title);
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

/* A models folder that cannot be opened, said: one not made yet is no
 * model yet, and where the folder's home holds StarPU's models (programs
 * on libpeppher-starpu), where they are and how to list them. */
static void say_unopened(const char *dir, int err)
{
	char *home = strdup(dir), *slash, *starpu = NULL;
	int up = 0;
	DIR *s;

	if (err != ENOENT) {
		fprintf(stderr, "peppher-perfmodel: %s: %s\n", dir, strerror(err));
		free(home);
		return;
	}
	fprintf(stderr, "peppher-perfmodel: %s: no models yet (libpeppher writes them at pph_shutdown)\n",
		dir);
	/* DIR is HOME/perfmodels/HOST: StarPU's are in HOME/starpu */
	while (home && up < 2 && (slash = strrchr(home, '/'))) {
		*slash = '\0';
		up++;
	}
	if (up == 2 && asprintf(&starpu, "%s/starpu", home) >= 0 && (s = opendir(starpu))) {
		closedir(s);
		fprintf(stderr,
			"peppher-perfmodel: programs on libpeppher-starpu keep StarPU's models in %s: STARPU_HOME=%s starpu_perfmodel_display -l\n",
			starpu, starpu);
	}
	free(home);
	free(starpu);
}

/* 1 where a model could not be read (said), else 0. */
static int cmd_list(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (!d) {
		say_unopened(dir, errno);
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
		if (!(m = load(dir, name))) {
			rc = 1; /* the others are listed, and a script told */
			continue;
		}
		for (v = m->variants; v; v = v->next, nv++)
			for (en = v->entries; en; en = en->next, ne++)
				samples += en->count;
		printf("%-32s %8u %8u %10lu\n", m->codelet, nv, ne, samples);
		pph__perfmodel_free(m);
	}
	closedir(d);
	return rc;
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
	char dat[512], gp[512], png[512], title[512];
	FILE *fd, *fg;
	int block = 0;

	if (!m)
		return 1;
	snprintf(dat, sizeof(dat), "%s.dat", codelet);
	snprintf(gp, sizeof(gp), "%s.gp", codelet);
	snprintf(png, sizeof(png), "%s.png", codelet);
	fd = fopen(dat, "w");
	fg = fopen(gp, "w");
	if (!fd || !fg) {
		fprintf(stderr, "peppher-perfmodel: cannot write %s\n", !fd ? dat : gp);
		return 1;
	}
	fprintf(fg, "# gnuplot %s: writes %s.png\n", gp, codelet);
	/* noenhanced: names are shown as they are (enhanced text made
	 * srt_omp "srt" and a subscript "omp") */
	fprintf(fg, "set terminal png noenhanced size 900,600\nset output ");
	put_quoted(fg, png);
	fprintf(fg, "\nset logscale xy\nset xlabel 'size (data bytes, or workSize)'\n"
		    "set ylabel 'time (us)'\nset title ");
	snprintf(title, sizeof(title), "performance model of %s", codelet);
	put_quoted(fg, title);
	fprintf(fg, "\nset key left top\nplot ");
	for (v = m->variants; v; v = v->next, block++) {
		fprintf(fd, "# %s %s x%u\n", v->name, pph_arch_name(v->arch), v->threads);
		for (e = v->entries; e; e = e->next)
			fprintf(fd, "%.17g %.17g %.17g\n", e->size, e->mean,
				e->count > 1 ? sqrt(e->m2 / (double)(e->count - 1)) : 0.0);
		fprintf(fd, "\n\n");
		pph__perfmodel_fit(v, 1);
		fprintf(fg, "%s", block ? ", \\\n     " : "");
		put_quoted(fg, dat);
		fprintf(fg, " index %d with yerrorbars title ", block);
		put_title(fg, v, "");
		/* titled as its points are: a team of 2's fit is not one
		 * thread's */
		if (v->reg.valid) {
			fprintf(fg, ", \\\n     %.17g*x**%.17g+%.17g title ", v->reg.a, v->reg.b,
				v->reg.c);
			put_title(fg, v, " regression");
		}
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
	/* what is wrong is said before the usage */
	if (strcmp(cmd, "list") != 0 && strcmp(cmd, "show") != 0 && strcmp(cmd, "plot") != 0 &&
	    strcmp(cmd, "reset") != 0) {
		fprintf(stderr, "peppher-perfmodel: unknown command '%s'\n", cmd);
		rc = (usage(stderr), 2);
	} else if (strcmp(cmd, "list") == 0) {
		if (optind + 1 != argc)
			fprintf(stderr, "peppher-perfmodel: list takes no CODELET\n");
		rc = optind + 1 == argc ? cmd_list(dir) : (usage(stderr), 2);
	} else if (optind + 2 != argc) {
		fprintf(stderr, "peppher-perfmodel: %s takes one CODELET\n", cmd);
		rc = (usage(stderr), 2);
	} else if (strcmp(cmd, "show") == 0) {
		rc = cmd_show(dir, argv[optind + 1]);
	} else if (strcmp(cmd, "plot") == 0) {
		rc = cmd_plot(dir, argv[optind + 1]);
	} else {
		rc = cmd_reset(dir, argv[optind + 1]);
	}
	free(dir);
	return rc;
}
