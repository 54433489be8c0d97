// SPDX-License-Identifier: GPL-2.0-only
/* The demo's program: a hot loop with calls, a data-dependent branch and
 * an indirect call, so every column of a branch profile has something. */
#include <stdio.h>
#include <stdlib.h>

static __attribute__((noinline)) unsigned long step(unsigned long x)
{
	return (x & 1) ? 3 * x + 1 : x / 2;
}

static __attribute__((noinline)) unsigned long twice(unsigned long x)
{
	return step(step(x));
}

static unsigned long (*const ops[2])(unsigned long) = { step, twice };

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 200000;
	unsigned long i, x, steps = 0;

	for (i = 1; i < n; i++)
		for (x = i; x > 1; steps++)
			x = ops[x % 3 == 0](x);
	printf("%lu steps\n", steps);
	return 0;
}
