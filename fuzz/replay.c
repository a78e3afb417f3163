/*
 * The fuzz target without libFuzzer: each file named on the command line
 * goes through LLVMFuzzerTestOneInput once.  make check runs it over the
 * project's descriptors (tests/compose/fuzz_replay.sh), so that the target
 * keeps building and running as compose's stages change; scripts/fuzz
 * mutates them with libFuzzer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		FILE *fp = fopen(argv[i], "rb");
		uint8_t *data;
		long size;

		if (!fp || fseek(fp, 0, SEEK_END) != 0 || (size = ftell(fp)) < 0) {
			perror(argv[i]);
			return 1;
		}
		rewind(fp);
		data = malloc((size_t)size + 1);
		if (!data || fread(data, 1, (size_t)size, fp) != (size_t)size) {
			fprintf(stderr, "%s: cannot read\n", argv[i]);
			return 1;
		}
		fclose(fp);
		LLVMFuzzerTestOneInput(data, (size_t)size);
		free(data);
	}
	printf("%d inputs\n", argc - 1);
	return 0;
}
