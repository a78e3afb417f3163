/* The application: legacy.h's functions, called as before; they run as
 * PEPPHER components whose CPU variants call the library's originals. */
#include <stdio.h>
#include <string.h>

#include "../legacy.h" /* copied to out/main.c, one folder below legacy.h */
#include "peppher.h"

static int failures;

static void expect(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "app: %s\n", what);
		failures++;
	}
}

int main(void)
{
	float x[4] = { 1, 2, 3, 4 }, y[4] = { 1, 1, 1, 1 }, v[3];
	float A[6] = { 1, 2, 3, 4, 5, 6 }, B[6] = { 1, 0, 0, 1, 1, 1 }, C[4];
	double d[3] = { 3, 4, 0 }, energy = 0;
	short until[4] = { 7, 7, 7, 0 };
	struct particle p[2] = { { 0, 0, 1, 0, }, { 0, 0, 0, 2 } };
	unsigned char src[8] = "aaaabbbc", packed[16];
	size_t packed_len = sizeof(packed);
	struct legacy_stream strm;
	legacy_db *db = NULL;

	PEPPHER_INITIALIZE();
	saxpy(4, 2, x, y);
	expect(y[0] == 3 && y[3] == 9, "saxpy");
	expect(norm2(d, 3, LEGACY_ACCURATE) == 25, "norm2");
	/* a length of -1 reaches the library as -1 */
	expect(count_until(until, -1) == 3 && count_until(until, 2) == 2, "count_until");
	advance(p, 2, 0.5, &energy);
	expect(p[0].x == 0.5 && p[1].y == 1 && energy == 2.5, "advance");
	expect(pack(packed, &packed_len, src, 8) == 0 && packed_len == 6 &&
		       memcmp(packed, "\4a\3b\1c", 6) == 0, "pack");
	expect(db_open("legacy.db", &db) == 0 && db && db_count(db, "t") == 10, "db_open, db_count");
	expect(stream_init(&strm, 7) == 0 && strm.avail == 7, "stream_init");
	vfill(v, 3, 1.5f);
	expect(v[0] == 1.5f && v[2] == 1.5f, "vfill");
	gemm(2, 2, 3, A, B, C);
	expect(C[0] == 4 && C[1] == 5 && C[2] == 10 && C[3] == 11, "gemm");
	PEPPHER_SHUTDOWN();
	return failures != 0;
}
