/* hot.h - the test program's inlined function: its lines are this header's, inside its callers. */
static inline unsigned long mix(unsigned long x)
{
	x ^= x << 13;
	x ^= x >> 7;
	return x ^ (x << 17);
}
