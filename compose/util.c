#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "util.h"

static void remove_staged(void);
static void catch_fatal_signals(void);

/* Out of memory ends compose; what it staged in the output folder goes
 * first, as after a signal (the renames themselves allocate nothing). */
static void out_of_memory(void)
{
	remove_staged();
	fputs("compose: fatal: out of memory\n", stderr);
	abort();
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		out_of_memory();
	return p;
}

void *xrealloc(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		out_of_memory();
	p = realloc(p, n && size ? n * size : 1);
	if (!p)
		out_of_memory();
	return p;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		out_of_memory();
	return d;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		out_of_memory();
	va_end(ap);
	return s;
}

void *array_push(void *array_ptr, size_t *n, size_t size)
{
	char **array = array_ptr;

	*array = xrealloc(*array, *n + 1, size);
	memset(*array + *n * size, 0, size);
	return *array + (*n)++ * size;
}

static void strbuf_vappend(struct strbuf *b, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	if (n >= 0) {
		if (b->len + (size_t)n + 1 > b->cap) {
			b->cap = (b->len + (size_t)n + 1) * 2;
			b->s = xrealloc(b->s, b->cap, 1);
		}
		vsnprintf(b->s + b->len, (size_t)n + 1, fmt, again);
		b->len += (size_t)n;
	}
	va_end(again);
}

void strbuf_append(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vappend(b, fmt, ap);
	va_end(ap);
}

void strbuf_join(struct strbuf *b, const char *sep, const char *fmt, ...)
{
	va_list ap;

	if (b->len)
		strbuf_append(b, "%s", sep);
	va_start(ap, fmt);
	strbuf_vappend(b, fmt, ap);
	va_end(ap);
}

char *strbuf_take(struct strbuf *b)
{
	char *s = b->s ? b->s : xstrdup("");

	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

static size_t str_hash(const char *s)
{
	size_t h = 14695981039346656037ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

/* The slot of key: its own, or the empty one where it would go. */
static struct strmap_slot *strmap_slot(const struct strmap *m, const char *key)
{
	size_t i = str_hash(key) & (m->cap - 1);

	while (m->slots[i].key && strcmp(m->slots[i].key, key) != 0)
		i = (i + 1) & (m->cap - 1);
	return &m->slots[i];
}

void *strmap_get(const struct strmap *m, const char *key)
{
	return m->cap ? strmap_slot(m, key)->value : NULL;
}

void strmap_put(struct strmap *m, const char *key, void *value)
{
	struct strmap_slot *slot;

	if (2 * (m->n + 1) > m->cap) { /* at most half full: short probes */
		struct strmap bigger = { xcalloc(m->cap ? 2 * m->cap : 64, sizeof(*m->slots)), 0,
					 m->cap ? 2 * m->cap : 64 };
		size_t i;

		for (i = 0; i < m->cap; i++)
			if (m->slots[i].key)
				*strmap_slot(&bigger, m->slots[i].key) = m->slots[i];
		bigger.n = m->n;
		free(m->slots);
		*m = bigger;
	}
	slot = strmap_slot(m, key);
	if (!slot->key)
		m->n++;
	slot->key = key;
	slot->value = value;
}

void strmap_free(struct strmap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->n = m->cap = 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

char *normalize_space(const char *s)
{
	char *d = xcalloc(strlen(s) + 1, 1), *p = d;

	while (*s) {
		if (is_blank(*s)) {
			while (is_blank(*s))
				s++;
			if (p != d && *s)
				*p++ = ' ';
			continue;
		}
		*p++ = *s++;
	}
	*p = '\0';
	return d;
}

static bool is_ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

bool is_c_identifier(const char *s)
{
	if (!s || !*s || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++)
		if (!is_ident_char(*s))
			return false;
	return true;
}

bool is_c_keyword(const char *s)
{
	/* C23 and the C++ keywords that would break the generated C++ view,
	 * with GNU's (asm, typeof, and their __x__ forms) */
	static const char *const keywords[] = {
		"alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor",
		"bool", "break", "case", "catch", "char", "char8_t", "char16_t",
		"char32_t", "class", "co_await", "co_return", "co_yield", "compl",
		"concept", "const", "const_cast", "consteval", "constexpr", "constinit",
		"continue", "decltype", "default", "delete", "do", "double",
		"dynamic_cast", "else", "enum", "explicit", "export", "extern", "false",
		"float", "for", "friend", "goto", "if", "inline", "int", "long",
		"mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr",
		"operator", "or", "or_eq", "private", "protected", "public", "register",
		"reinterpret_cast", "requires", "restrict", "return", "short", "signed",
		"sizeof", "static", "static_assert", "static_cast", "struct", "switch",
		"template", "this", "thread_local", "throw", "true", "try", "typedef",
		"typeid", "typename", "typeof", "typeof_unqual", "union", "unsigned",
		"using", "virtual", "void", "volatile", "wchar_t", "while", "xor",
		"xor_eq", "_Alignas", "_Alignof", "_Atomic", "_BitInt", "_Bool",
		"_Complex", "_Generic", "_Imaginary", "_Noreturn", "_Static_assert",
		"_Thread_local", "__asm", "__asm__", "__attribute__", "__extension__",
		"__inline", "__inline__", "__typeof", "__typeof__", "__volatile__",
	};
	size_t i;

	for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (strcmp(s, keywords[i]) == 0)
			return true;
	return false;
}

static bool is_type_keyword(const char *s)
{
	static const char *const words[] = {
		"_Atomic", "_Bool", "_Complex", "bool", "char", "char16_t", "char32_t", "char8_t",
		"const", "double", "enum",
		"float", "int", "long", "restrict", "short", "signed", "struct",
		"union", "unsigned", "void", "volatile", "wchar_t",
	};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(s, words[i]) == 0)
			return true;
	return false;
}

/* Words and stars in [s, end): "const float *", "struct point * const". */
static bool is_plain_type(const char *s, const char *end)
{
	int words = 0;

	while (s < end) {
		const char *w = s;
		char *word;
		bool ok;

		if (*s == ' ' || (*s == '*' && words)) {
			s++;
			continue;
		}
		while (s < end && (*s == '_' || (*s >= 'a' && *s <= 'z') ||
				   (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
			s++;
		if (s == w)
			return false;
		word = xasprintf("%.*s", (int)(s - w), w);
		ok = is_c_identifier(word) && (!is_c_keyword(word) || is_type_keyword(word));
		free(word);
		if (!ok)
			return false;
		words++;
	}
	return words > 0;
}

static bool is_type_in(const char *s, const char *end, bool allow_fnptr, int depth);

/* A function's parameter types in [s, end), split at the commas outside
 * parentheses: each a type (a function pointer too), "..." last. */
static bool is_param_types(const char *s, const char *end, int depth)
{
	while (s < end) {
		const char *p = s, *a = s, *z;
		int nest = 0;

		for (; p < end && (nest || *p != ','); p++)
			nest += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		for (z = p; a < z && a[0] == ' '; a++)
			;
		while (z > a && z[-1] == ' ')
			z--;
		if (!(p == end && z - a == 3 && memcmp(a, "...", 3) == 0) &&
		    !is_type_in(a, z, true, depth + 1))
			return false;
		s = p < end ? p + 1 : p;
	}
	return true;
}

/* Does [s, end) end with " __attribute__((word))" (clang spells a
 * noreturn function pointer "void (*)(void) __attribute__((noreturn))")?
 * Then *end moves before it. */
static bool strip_attribute(const char *s, const char **end)
{
	static const char open[] = "__attribute__((";
	const char *e = *end, *w;

	if (e - s < (ptrdiff_t)sizeof(open) + 2 || e[-1] != ')' || e[-2] != ')')
		return false;
	for (w = e - 2; w > s && (w[-1] == '_' || (w[-1] >= 'a' && w[-1] <= 'z') ||
				  (w[-1] >= 'A' && w[-1] <= 'Z') || (w[-1] >= '0' && w[-1] <= '9'));
	     w--)
		;
	if (w == e - 2 || w - s < (ptrdiff_t)sizeof(open) - 1 ||
	    memcmp(w - (sizeof(open) - 1), open, sizeof(open) - 1) != 0)
		return false;
	*end = w - (sizeof(open) - 1);
	while (*end > s && (*end)[-1] == ' ')
		(*end)--;
	return true;
}

/* "[3]", "[3][4]": what follows "(*)" in a pointer to arrays. */
static bool is_array_dims(const char *s, const char *end)
{
	if (s == end)
		return false;
	while (s < end) {
		if (*s++ != '[' || s == end || *s < '0' || *s > '9')
			return false;
		while (s < end && *s >= '0' && *s <= '9')
			s++;
		if (s == end || *s++ != ']')
			return false;
	}
	return true;
}

/* Words and stars in [s, end), or with allow_fnptr a pointer to a function
 * "T (*)(T1, T2)", whose parameters may be function pointers too, and
 * which may end in an attribute (noreturn), or a pointer to arrays
 * "T (*)[3]" (libclang's spelling of a parameter "T m[][3]"). */
static bool is_type_in(const char *s, const char *end, bool allow_fnptr, int depth)
{
	const char *open = memchr(s, '(', (size_t)(end - s)), *args, *close = end;

	if (!open)
		return is_plain_type(s, end);
	if (!allow_fnptr || depth > 8 || !is_plain_type(s, open))
		return false;
	/* "(*)" (or "(**)": where a function pointer is written) then
	 * "(T1, T2)" or "[N]" at the end */
	for (args = open + 1; *args == ' '; args++)
		;
	if (*args++ != '*')
		return false;
	while (*args == ' ' || *args == '*')
		args++;
	if (*args++ != ')')
		return false;
	while (*args == ' ')
		args++;
	while (close > args && close[-1] == ' ')
		close--;
	if (*args == '[')
		return is_array_dims(args, close);
	if (*args++ != '(')
		return false;
	strip_attribute(args, &close);
	if (close <= args || close[-1] != ')')
		return false;
	return is_param_types(args, close - 1, depth);
}

bool is_c_type(const char *type, bool allow_fnptr)
{
	return is_type_in(type, type + strlen(type), allow_fnptr, 0);
}

void split_words(const char *s, bool raw, char ***words, size_t *n)
{
	while (*s) {
		struct strbuf w = { 0 };
		char quote = 0;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		strbuf_append(&w, "%s", "");
		for (; *s && (quote || (*s != ' ' && *s != '\t')); s++) {
			bool mark = true; /* an opening or closing quote */

			if (*s == '$' && s[1] == '$') { /* make's escape of '$' */
				strbuf_append(&w, raw ? "$$" : "$");
				s++;
				continue;
			}
			if (!quote && (*s == '\'' || *s == '"'))
				quote = *s;
			else if (quote && *s == quote)
				quote = 0;
			else
				mark = false;
			if (raw || !mark)
				strbuf_append(&w, "%c", *s);
		}
		*(char **)array_push(words, n, sizeof(char *)) = w.s;
	}
}

void free_words(char **words, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(words[i]);
	free(words);
}

bool is_cpp_option(const char *w, bool *joined)
{
	static const char *const with_word[] = { "-include", "-isystem", "-iquote", "-idirafter" };
	size_t i;

	if (w[0] == '-' && (w[1] == 'I' || w[1] == 'D' || w[1] == 'U')) {
		*joined = w[2] != '\0';
		return true;
	}
	for (i = 0; i < sizeof(with_word) / sizeof(with_word[0]); i++) {
		size_t len = strlen(with_word[i]);

		if (strncmp(w, with_word[i], len) == 0) {
			*joined = w[len] != '\0';
			return true;
		}
	}
	return false;
}

char *printable(const char *s)
{
	char *d = xcalloc(2 * strlen(s) + 1, 1), *p = d;

	for (; *s; s++) {
		if (*s == '\n' || *s == '\t') {
			*p++ = '\\';
			*p++ = *s == '\n' ? 'n' : 't';
		} else {
			*p++ = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;
		}
	}
	return d;
}

char *path_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xasprintf("%.*s", (int)(slash - path), path);
}

char *path_join(const char *dir, const char *name)
{
	if (name[0] == '/' || strcmp(dir, ".") == 0)
		return xstrdup(name);
	return xasprintf("%s/%s", dir, name);
}

const char *path_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Lexically: a realpath() per source file costs a readlink per component. */
char *path_absolute(const char *path)
{
	char cwd[PATH_MAX], *full, *out, *tok, *save = NULL;
	size_t len = 0;

	if (path[0] == '/')
		full = xstrdup(path);
	else if (getcwd(cwd, sizeof(cwd)))
		full = xasprintf("%s/%s", cwd, path);
	else
		return NULL;
	out = xcalloc(strlen(full) + 2, 1);
	for (tok = strtok_r(full, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		if (strcmp(tok, ".") == 0)
			continue;
		if (strcmp(tok, "..") == 0) {
			while (len > 0 && out[--len] != '/')
				;
			out[len] = '\0';
			continue;
		}
		len += (size_t)sprintf(out + len, "/%s", tok);
	}
	if (!len)
		strcpy(out, "/");
	free(full);
	return out;
}

char *path_relative(const char *base_real, const char *target)
{
	const char *rb = base_real;
	char *rt, *out, *p;
	size_t common = 0, i, ups = 0;

	rt = path_absolute(target);
	if (!rt)
		return xstrdup(target);
	/* longest common prefix ending on a folder boundary */
	for (i = 0; rb[i] && rb[i] == rt[i]; i++)
		if (rb[i] == '/')
			common = i;
	if (!rb[i] && (rt[i] == '/' || !rt[i]))
		common = i;
	if (strcmp(rb, "/") != 0)
		for (i = common; rb[i]; i++)
			ups += rb[i] == '/';
	out = p = xcalloc(3 * ups + strlen(rt) + 2, 1);
	for (i = 0; i < ups; i++)
		p += sprintf(p, "../");
	sprintf(p, "%s", rt[common] == '/' ? rt + common + 1 : rt + common);
	if (!out[0])
		strcpy(out, ".");
	else if (out[strlen(out) - 1] == '/')
		out[strlen(out) - 1] = '\0';
	free(rt);
	return out;
}

/* Drop the qualifiers of a pointer itself ("T *restrict", "T *const",
 * "int (*const)(int)"): C ignores them in a parameter's type, and compose
 * tells pointers by their last '*'.  png.h declares "png_alloc_size_t *
 * PNG_RESTRICT", form.h "bool (*const field_check)(FIELD *, const void *)". */
static void drop_pointer_qualifiers(char *t)
{
	static const char *const quals[] = { "const", "volatile", "restrict", "__restrict__",
					     "__restrict" };
	char *star, *s;
	size_t i, q;

	for (star = strchr(t, '*'); star; star = strchr(star + 1, '*')) {
		bool any = false, again = true;

		for (s = star + 1; again;) {
			again = false;
			while (*s == ' ')
				s++;
			for (i = 0; i < sizeof(quals) / sizeof(quals[0]); i++) {
				q = strlen(quals[i]);
				if (strncmp(s, quals[i], q) == 0 && !is_ident_char(s[q])) {
					s += q;
					any = again = true;
					break;
				}
			}
		}
		if (any && (*s == ')' || *s == '\0'))
			memmove(star + 1, s, strlen(s) + 1);
	}
}

char *normalize_type(const char *type)
{
	char *t = normalize_space(type);
	char *d = xcalloc(strlen(t) * 2 + 1, 1), *p = d;
	const char *s;

	drop_pointer_qualifiers(t);

	/* "float*" and "float  *" both become "float *"; "**" and "(*" stay
	 * together */
	for (s = t; *s; s++) {
		if (*s == '*' && p != d && p[-1] != ' ' && p[-1] != '*' && p[-1] != '(')
			*p++ = ' ';
		if (*s == ' ' && s[1] == '*' && p != d && (p[-1] == '*' || p[-1] == '('))
			continue;
		*p++ = *s;
	}
	free(t);
	return d;
}

char *normalize_result_type(const char *type)
{
	char *t = normalize_type(type), *w, *save = NULL;
	struct strbuf b = { 0 };

	if (strchr(t, '*') || strchr(t, '('))
		return t; /* a pointer's own qualifiers are gone already */
	for (w = strtok_r(t, " ", &save); w; w = strtok_r(NULL, " ", &save))
		if (strcmp(w, "const") != 0 && strcmp(w, "volatile") != 0)
			strbuf_join(&b, " ", "%s", w);
	free(t);
	return strbuf_take(&b);
}

unsigned edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	unsigned *row = xcalloc(lb + 1, sizeof(*row)), diag, up, d;

	for (j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = (unsigned)i;
		for (j = 1; j <= lb; j++) {
			up = row[j];
			d = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < d)
				d = up + 1;
			if (row[j - 1] + 1 < d)
				d = row[j - 1] + 1;
			row[j] = d;
			diag = up;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

/*
 * A signal that ends compose (ctrl-C, kill, a closed terminal) while files
 * are staged removes the temporaries, then ends compose as the signal
 * would have (status 128 + its number): the output folder holds what it
 * held.  Between file_commit_begin() and file_commit_end() the renames
 * run with those signals blocked, so that one arriving then ends compose
 * after the last one: the folder holds the new files, all of them.  The
 * list of temporaries changes with the signals blocked too: the handler
 * never sees it half changed.
 */
static const int fatal_signals[] = { SIGINT, SIGTERM, SIGHUP };
static char **staged;	 /* the temporaries not yet renamed or removed */
static size_t nstaged;
/* the folders made for them (file_make_folders()), outermost first */
static char **made;
static size_t nmade;
static unsigned commit_depth;
static sigset_t commit_saved; /* the mask file_commit_begin() found */

static void block_fatal_signals(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++)
		sigaddset(&set, fatal_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* Remove the staged temporaries, then the folders made for them (each
 * when empty: rmdir, innermost first), on the way to a fatal end.
 * Async-signal-safe: frees nothing. */
static void remove_staged(void)
{
	sigset_t old;
	size_t i;

	block_fatal_signals(&old); /* a handler would do it a second time */
	for (i = 0; i < nstaged; i++)
		unlink(staged[i]);
	nstaged = 0;
	while (nmade > 0)
		rmdir(made[--nmade]);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static void on_fatal_signal(int sig)
{
	remove_staged();
	/* SA_RESETHAND made the action the default: once the handler
	 * returns, the signal, pending now, ends the process */
	raise(sig);
}

int file_make_folders(const char *dir)
{
	char *copy = xstrdup(dir), *p = copy, *folder, c;
	sigset_t old;
	int rc = 0, err = 0;

	catch_fatal_signals();
	while (rc == 0 && *(p += strspn(p, "/"))) {
		p += strcspn(p, "/");
		c = *p;
		*p = '\0';
		/* made and listed with the signals blocked: one between the
		 * two would leave the folder */
		folder = xstrdup(copy);
		block_fatal_signals(&old);
		made = xrealloc(made, nmade + 1, sizeof(char *));
		if (mkdir(copy, 0777) == 0) {
			made[nmade++] = folder;
			folder = NULL;
		} else if (errno != EEXIST) {
			err = errno;
			rc = -1;
		}
		sigprocmask(SIG_SETMASK, &old, NULL);
		free(folder);
		*p = c;
	}
	free(copy);
	errno = err;
	return rc;
}

void file_made_folders_done(int keep)
{
	char **list;
	size_t n, i;
	sigset_t old;

	block_fatal_signals(&old);
	list = made;
	n = nmade;
	made = NULL;
	nmade = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	for (i = n; i-- > 0;) {
		if (!keep)
			rmdir(list[i]);
		free(list[i]);
	}
	free(list);
}

/* Catch the fatal signals, once, but for those ignored (nohup). */
static void catch_fatal_signals(void)
{
	static bool caught;
	struct sigaction sa, old;
	size_t i;

	if (caught)
		return;
	caught = true;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal_signal;
	sa.sa_flags = SA_RESETHAND;
	sigfillset(&sa.sa_mask); /* one handler at a time */
	for (i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++)
		if (sigaction(fatal_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(fatal_signals[i], &sa, NULL);
}

static void staged_add(char *tmp)
{
	sigset_t old;

	block_fatal_signals(&old);
	*(char **)array_push(&staged, &nstaged, sizeof(char *)) = tmp;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static void staged_remove(const char *tmp)
{
	sigset_t old;
	size_t i;

	block_fatal_signals(&old);
	for (i = 0; i < nstaged; i++)
		if (staged[i] == tmp) {
			staged[i] = staged[--nstaged];
			break;
		}
	if (!nstaged) {
		free(staged);
		staged = NULL;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

void file_commit_begin(void)
{
	sigset_t old;

	block_fatal_signals(&old);
	if (commit_depth++ == 0)
		commit_saved = old;
}

void file_commit_end(void)
{
	if (commit_depth && --commit_depth == 0)
		sigprocmask(SIG_SETMASK, &commit_saved, NULL); /* a pending one ends compose */
}

/*
 * Files are written beside their destination under a name of their own
 * (O_EXCL: never over another's), then renamed into place, so that a
 * reader, or a failed run, sees the old file or the new one, never half.
 */
char *file_stage(const char *path, const char *text, size_t len)
{
	static unsigned serial;
	char *dir = path_dirname(path), *tmp = NULL;
	int fd = -1, err;
	size_t done = 0;
	ssize_t n;

	catch_fatal_signals();

	while (fd < 0) {
		free(tmp);
		tmp = xasprintf("%s/.%s.tmp-%ld-%u", dir, path_basename(path), (long)getpid(),
				__atomic_fetch_add(&serial, 1, __ATOMIC_RELAXED));
		/* listed before it exists: a signal right after open()
		 * still removes it */
		staged_add(tmp);
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0)
			staged_remove(tmp);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	free(dir);
	while (fd >= 0 && done < len && (n = write(fd, text + done, len - done)) > 0)
		done += (size_t)n;
	if (fd >= 0 && done == len && close(fd) == 0)
		return tmp;
	err = errno;
	if (fd >= 0) {
		if (done < len)
			close(fd);
		unlink(tmp);
		staged_remove(tmp);
	}
	free(tmp);
	errno = err ? err : EIO;
	return NULL;
}

int file_commit(char *tmp, const char *path)
{
	int rc = rename(tmp, path), err = errno;

	if (rc != 0)
		unlink(tmp);
	staged_remove(tmp);
	free(tmp);
	errno = err;
	return rc;
}

void file_discard(char *tmp)
{
	if (tmp) {
		unlink(tmp);
		staged_remove(tmp);
	}
	free(tmp);
}

char *file_keep_old(const char *path, int *had)
{
	static unsigned serial;
	char *dir, *old = NULL;
	struct stat st;

	*had = lstat(path, &st) == 0;
	if (!*had)
		return NULL;
	dir = path_dirname(path);
	for (;;) {
		free(old);
		old = xasprintf("%s/.%s.old-%ld-%u", dir, path_basename(path), (long)getpid(),
				__atomic_fetch_add(&serial, 1, __ATOMIC_RELAXED));
		staged_add(old); /* a fatal end removes the second name */
		if (link(path, old) == 0)
			break;
		staged_remove(old);
		if (errno != EEXIST) {
			free(old);
			old = NULL;
			*had = -1;
			break;
		}
	}
	free(dir);
	return old;
}

int file_restore_old(char *old, int had, const char *path)
{
	int rc;

	if (had > 0) {
		rc = rename(old, path);
	} else if (had == 0) {
		rc = unlink(path);
	} else {
		errno = ENOTSUP; /* no second name could be made: the new file stays */
		rc = -1;
	}
	if (old) {
		int err = errno;

		/* kept by a fatal end too: it is all there is of the old file */
		staged_remove(old);
		errno = err;
	}
	if (rc == 0)
		free(old);
	return rc;
}

void file_drop_old(char *old)
{
	if (old) {
		unlink(old);
		staged_remove(old);
	}
	free(old);
}

int file_write_atomic(const char *path, const char *text, size_t len)
{
	char *tmp = file_stage(path, text, len);

	return tmp ? file_commit(tmp, path) : -1;
}

char *c_decl(const char *type, const char *name)
{
	size_t len = strlen(type);
	const char *paren = strchr(type, '(');

	if (paren) { /* function pointer: the name goes inside "(*)", "(**)" */
		const char *after = paren + 1;

		while (*after == ' ' || *after == '*')
			after++;
		return xasprintf("%.*s%s%s", (int)(after - type), type, name, after);
	}
	if (len && type[len - 1] == '*')
		return xasprintf("%s%s", type, name);
	return xasprintf("%s %s", type, name);
}

bool type_has_word(const char *type, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = type; p && (p = strstr(p, word)) != NULL; p += n)
		if ((p == type || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
		    !(isalnum((unsigned char)p[n]) || p[n] == '_'))
			return true;
	return false;
}

/* Is type an unsigned integer by its name ("size_t", "unsigned long",
 * "uint32_t")?  A typedef it cannot see through (OpenBLAS's blasint, an
 * int) is not: its values are passed as given, negative ones too. */
bool type_is_unsigned_integer(const char *type)
{
	static const char *const names[] = { "size_t", "uintptr_t", "uintmax_t", "bool", "_Bool" };
	size_t i;

	if (strncmp(type, "const ", 6) == 0)
		type += 6;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(type, names[i]) == 0)
			return true;
	/* unsigned, unsigned long long int; uint8_t .. uint64_t, uint_least32_t */
	return strncmp(type, "unsigned", 8) == 0 ||
	       (strncmp(type, "uint", 4) == 0 && strcmp(type + strlen(type) - 2, "_t") == 0);
}
