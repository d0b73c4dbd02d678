// SPDX-License-Identifier: GPL-2.0-only
/* tbmod.c - the boards' test module (issue 23): writing N to
 * /sys/module/tbmod/parameters/spin_ms spins N milliseconds (at most 5000) in
 * tbmod_outer -> tbmod_inner, in the writer's context, so a recording
 * samples a module's code; the host then resolves its symbols. */
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

static unsigned long tbmod_sink;
static unsigned int spin_ms;

static noinline unsigned long tbmod_inner(unsigned long x)
{
	x ^= x << 13;
	x ^= x >> 7;
	return x ^ (x << 17);
}

static noinline unsigned long tbmod_outer(unsigned int ms)
{
	ktime_t end = ktime_add_ms(ktime_get(), ms);
	unsigned long s = 1;

	while (ktime_before(ktime_get(), end))
		for (int i = 0; i < 1000; i++)
			s = tbmod_inner(s + i);
	return s;
}

static int spin_set(const char *val, const struct kernel_param *kp)
{
	unsigned int ms;

	if (kstrtouint(val, 0, &ms) || ms > 5000)
		return -EINVAL;
	spin_ms = ms;
	tbmod_sink = tbmod_outer(ms);
	return 0;
}

static const struct kernel_param_ops spin_ops = {
	.set = spin_set,
	.get = param_get_uint,
};
module_param_cb(spin_ms, &spin_ops, &spin_ms, 0600);
MODULE_PARM_DESC(spin_ms, "spin this many milliseconds in the module's code");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tracebox's test module: code to sample");
