/*
 * zlib's functions on real data: built once as a plain program (-DDIRECT)
 * and once in the tree compose --generate-comp-files made from zlib.h,
 * where every call goes through PEPPHER.  Both print the same lines, errno
 * after a failed gzopen among them (a composed call may run on a worker
 * thread).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#ifdef DIRECT
#define PEPPHER_INITIALIZE() ((void)0)
#define PEPPHER_SHUTDOWN() ((void)0)
#else
#include "peppher.h"
#endif

#define SIZE (1u << 20)

int main(void)
{
	unsigned char *data = malloc(SIZE), *packed, *back = malloc(SIZE);
	uLong bound, seed = 12345;
	int level, status = 0;
	gzFile missing;

	PEPPHER_INITIALIZE();
	bound = compressBound(SIZE);
	packed = malloc(bound);
	for (uLong i = 0; i < SIZE; i++) { /* text-like: compressible, not trivially */
		seed = seed * 1103515245 + 12345;
		data[i] = (unsigned char)("etaoin shrdlu\n"[(seed >> 16) % 14]);
	}
	printf("crc32 %08lx\n", crc32(0, data, SIZE));
	printf("crc32 chained %08lx\n", crc32(crc32(0, data, SIZE / 3), data + SIZE / 3, SIZE - SIZE / 3));
	printf("adler32 %08lx\n", adler32(1, data, SIZE));
	for (level = 1; level <= 9; level += 4) {
		uLongf plen = bound, blen = SIZE;
		int rc = compress2(packed, &plen, data, SIZE, level);

		printf("compress2 level %d: rc %d, %lu bytes, crc32 %08lx\n", level, rc,
		       (unsigned long)plen, crc32(0, packed, (uInt)plen));
		rc = uncompress(back, &blen, packed, plen);
		printf("uncompress: rc %d, %lu bytes, %s\n", rc, (unsigned long)blen,
		       blen == SIZE && memcmp(back, data, SIZE) == 0 ? "same" : "DIFFERENT");
		status |= blen != SIZE || memcmp(back, data, SIZE) != 0;
	}
	errno = 0;
	missing = gzopen("missing/file.gz", "rb");
	printf("gzopen of a missing file: %s, errno %s\n", missing ? "opened" : "NULL",
	       strerror(errno));
	PEPPHER_SHUTDOWN();
	free(back);
	free(packed);
	free(data);
	return status;
}
