// SPDX-License-Identifier: GPL-2.0-only
/* A small riscv64 program whose branches the integration tests point at. */
int __attribute__((noinline)) work(int n)
{
	int s = 0, i;

	for (i = 0; i < n; i++) {
		if (i % 3)
			s += i;
		else
			s ^= i;
	}
	return s;
}

int main(void)
{
	return work(100000) & 1;
}
