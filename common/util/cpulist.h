/* cpulist.h - parse CPU lists such as "0-3,6" (sysfs and -C syntax). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CPULIST_H
#define CPULIST_H

#include <stddef.h>

/** cpulist_parse - fill @cpus (malloc'd) from @text; returns the count or -1 on bad syntax */
long cpulist_parse(const char *text, int **cpus);
/** cpulist_online - the online CPUs (/sys/devices/system/cpu/online); count or -1 */
long cpulist_online(int **cpus);

#endif
