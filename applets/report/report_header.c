/* report_header.c - trace-report --header / --header-only: the recording's
 * header as perf script 6.1 prints it (perf_header__fprintf_info without -I:
 * the fixed lines, then one block per feature bit in bit order, then the
 * features the file lacks). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <stdlib.h>
#include "perfdata/pd_compressed.h"
#include "perfdata/pd_format.h"
#include "perfdata/pd_session.h"
#include "report/report_header.h"
#include "util/cpulist.h"

/* perf 6.1's feature names (feat_ops[].name), bits 0..31. */
static const char *const feat_names[PD_FEAT_LAST_PERF] = {
	"RESERVED", "TRACING_DATA", "BUILD_ID", "HOSTNAME", "OSRELEASE", "VERSION",
	"ARCH", "NRCPUS", "CPUDESC", "CPUID", "TOTAL_MEM", "CMDLINE", "EVENT_DESC",
	"CPU_TOPOLOGY", "NUMA_TOPOLOGY", "BRANCH_STACK", "PMU_MAPPINGS", "GROUP_DESC",
	"AUXTRACE", "STAT", "CACHE", "SAMPLE_TIME", "MEM_TOPOLOGY", "CLOCKID",
	"DIR_FORMAT", "BPF_PROG_INFO", "BPF_BTF", "COMPRESSED", "CPU_PMU_CAPS",
	"CLOCK_DATA", "HYBRID_TOPOLOGY", "PMU_CAPS",
};

struct bit_name {
	uint64_t bit;
	const char *name;
};

/* In perf's order, which is not the bits' order (and has no TRANSACTION). */
static const struct bit_name sample_bits[] = {
	{ 1u << 0, "IP" }, { 1u << 1, "TID" }, { 1u << 2, "TIME" }, { 1u << 3, "ADDR" },
	{ 1u << 4, "READ" }, { 1u << 5, "CALLCHAIN" }, { 1u << 6, "ID" }, { 1u << 7, "CPU" },
	{ 1u << 8, "PERIOD" }, { 1u << 9, "STREAM_ID" }, { 1u << 10, "RAW" },
	{ 1u << 11, "BRANCH_STACK" }, { 1u << 12, "REGS_USER" }, { 1u << 13, "STACK_USER" },
	{ 1u << 16, "IDENTIFIER" }, { 1u << 18, "REGS_INTR" }, { 1u << 15, "DATA_SRC" },
	{ 1u << 14, "WEIGHT" }, { 1u << 19, "PHYS_ADDR" }, { 1u << 20, "AUX" },
	{ 1u << 21, "CGROUP" }, { 1u << 22, "DATA_PAGE_SIZE" }, { 1u << 23, "CODE_PAGE_SIZE" },
	{ 1u << 24, "WEIGHT_STRUCT" }, { 0, NULL }
};

static const struct bit_name branch_bits[] = {
	{ 1u << 0, "USER" }, { 1u << 1, "KERNEL" }, { 1u << 2, "HV" }, { 1u << 3, "ANY" },
	{ 1u << 4, "ANY_CALL" }, { 1u << 5, "ANY_RETURN" }, { 1u << 6, "IND_CALL" },
	{ 1u << 7, "ABORT_TX" }, { 1u << 8, "IN_TX" }, { 1u << 9, "NO_TX" },
	{ 1u << 10, "COND" }, { 1u << 11, "CALL_STACK" }, { 1u << 12, "IND_JUMP" },
	{ 1u << 13, "CALL" }, { 1u << 14, "NO_FLAGS" }, { 1u << 15, "NO_CYCLES" },
	{ 1u << 16, "TYPE_SAVE" }, { 1u << 17, "HW_INDEX" }, { 1u << 18, "PRIV_SAVE" },
	{ 0, NULL }
};

static const struct bit_name read_bits[] = {
	{ 1u << 0, "TOTAL_TIME_ENABLED" }, { 1u << 1, "TOTAL_TIME_RUNNING" },
	{ 1u << 2, "ID" }, { 1u << 3, "GROUP" }, { 1u << 4, "LOST" }, { 0, NULL }
};

/* The attr's flag bits, in perf_event_attr order (precise_ip is two bits). */
static const char *const flag_names[] = {
	"disabled", "inherit", "pinned", "exclusive", "exclude_user", "exclude_kernel",
	"exclude_hv", "exclude_idle", "mmap", "comm", "freq", "inherit_stat",
	"enable_on_exec", "task", "watermark", "precise_ip", NULL /* its 2nd bit */,
	"mmap_data", "sample_id_all", "exclude_host", "exclude_guest",
	"exclude_callchain_kernel", "exclude_callchain_user", "mmap2", "comm_exec",
	"use_clockid", "context_switch", "write_backward", "namespaces", "ksymbol",
	"bpf_event", "aux_output", "cgroup", "text_poke", "build_id", "inherit_thread",
	"remove_on_exec", "sigtrap",
};

/* perf formats every value into one buffer that keeps its last text: a
 * bit set with no known bit prints the previous value again, as perf does. */
struct attr_pr {
	FILE *out;
	char buf[1024];
};

static void put(struct attr_pr *p, const char *name)
{
	fprintf(p->out, ", %s = %s", name, p->buf);
}

static void put_bits(struct attr_pr *p, const char *name, uint64_t v, const struct bit_name *b)
{
	size_t n = 0;

	if (!v)
		return;
	for (; b->name; b++)
		if (v & b->bit)
			n += (size_t)snprintf(p->buf + n, sizeof(p->buf) - n, "%s%s", n ? "|" : "",
					      b->name);
	put(p, name);
}

static void put_u(struct attr_pr *p, const char *name, uint64_t v)
{
	if (!v)
		return;
	snprintf(p->buf, sizeof(p->buf), "%" PRIu64, v);
	put(p, name);
}

static void put_x(struct attr_pr *p, const char *name, uint64_t v)
{
	if (!v)
		return;
	snprintf(p->buf, sizeof(p->buf), "%#" PRIx64, v);
	put(p, name);
}

/* perf_event_attr__fprintf with header.c's ", name = value" printer. */
static void print_attr(FILE *out, const unsigned char *a)
{
	struct attr_pr p = { .out = out };
	uint64_t flags = pd_u64(a + 40);
	int32_t clockid = (int32_t)pd_u32(a + 92);

	put_u(&p, "type", pd_u32(a + 0));
	put_u(&p, "size", pd_u32(a + 4));
	put_x(&p, "config", pd_u64(a + 8));
	put_u(&p, "{ sample_period, sample_freq }", pd_u64(a + 16));
	put_bits(&p, "sample_type", pd_u64(a + 24), sample_bits);
	put_bits(&p, "read_format", pd_u64(a + 32), read_bits);
	for (unsigned b = 0; b < sizeof(flag_names) / sizeof(flag_names[0]); b++) {
		if (!flag_names[b])
			continue;
		if (b == 15)     /* precise_ip: bits 15 and 16 */
			put_u(&p, flag_names[b], (flags >> 15) & 3);
		else
			put_u(&p, flag_names[b], (flags >> b) & 1);
	}
	put_u(&p, "{ wakeup_events, wakeup_watermark }", pd_u32(a + 48));
	put_u(&p, "bp_type", pd_u32(a + 52));
	put_x(&p, "{ bp_addr, config1 }", pd_u64(a + 56));
	put_x(&p, "{ bp_len, config2 }", pd_u64(a + 64));
	put_bits(&p, "branch_sample_type", pd_u64(a + 72), branch_bits);
	put_x(&p, "sample_regs_user", pd_u64(a + 80));
	put_u(&p, "sample_stack_user", pd_u32(a + 88));
	if (clockid) {
		snprintf(p.buf, sizeof(p.buf), "%" PRId64, (int64_t)clockid);
		put(&p, "clockid");
	}
	put_x(&p, "sample_regs_intr", pd_u64(a + 96));
	put_u(&p, "aux_watermark", pd_u32(a + 104));
	put_u(&p, "sample_max_stack", pd_u16(a + 108));
	put_u(&p, "aux_sample_size", pd_u32(a + 112));
	put_u(&p, "sig_data", pd_u64(a + 120));
}

/* print_event_desc: "# event : name = N, , id = { a, b }" and the attr. */
static void print_events(FILE *out, struct pd_session *s)
{
	for (size_t i = 0; i < pd_session_nr_evsels(s); i++) {
		const struct pd_evsel *e = pd_session_evsel(s, i);

		fprintf(out, "# event : name = %s, ", e->name);
		if (e->nr_ids) {
			fprintf(out, ", id = {");
			for (size_t j = 0; j < e->nr_ids; j++)
				fprintf(out, "%s %" PRIu64, j ? "," : "", e->ids[j]);
			fprintf(out, " }");
		}
		print_attr(out, e->raw);
		fputc('\n', out);
	}
}

static void header_string(FILE *out, const char *label, const char *v)
{
	if (v)
		fprintf(out, "# %s : %s\n", label, v);
}

/* perf's print_cmdline: every argument followed by a space, ' escaped. */
static void header_cmdline(FILE *out, const struct pd_header_info *h)
{
	fprintf(out, "# cmdline : ");
	for (uint32_t i = 0; i < h->nr_cmdline; i++) {
		for (const char *c = h->cmdline[i]; *c; c++) {
			if (*c == '\'')
				fputc('\\', out);
			fputc(*c, out);
		}
		fputc(' ', out);
	}
	fputc('\n', out);
}

/* Whether GROUP_DESC fits the attrs as perf's process_group_desc demands:
 * each leader index met in attr order, every group's members after it. */
static int groups_fit(const struct pd_header_info *h, size_t nr_evsels)
{
	uint32_t i = 0, nr = 0;

	for (size_t k = 0; k < nr_evsels; k++) {
		if (i < h->nr_groups && k == h->groups[i].leader) {
			if (nr)
				return 0;
			nr = h->groups[i++].nr_members - 1;
		} else if (nr) {
			nr--;
		}
	}
	return i == h->nr_groups && nr == 0;
}

/* print_group_desc: "# group: NAME{leader,member,...}" for each group of
 * more than one attr ("{anon_group}" has no name). */
static void print_groups(FILE *out, struct pd_session *s)
{
	const struct pd_header_info *h = pd_session_info(s);
	size_t n = pd_session_nr_evsels(s);
	uint32_t i = 0, nr = 0;

	if (!h->has_groups || !groups_fit(h, n))
		return;
	for (size_t k = 0; k < n; k++) {
		const char *name = pd_session_evsel(s, k)->name;

		if (i < h->nr_groups && k == h->groups[i].leader) {
			const struct pd_group_desc *g = &h->groups[i++];

			if (g->nr_members > 1) {
				fprintf(out, "# group: %s{%s",
					strcmp(g->name, "{anon_group}") ? g->name : "", name);
				nr = g->nr_members - 1;
			}
		} else if (nr) {
			fprintf(out, ",%s", name);
			if (--nr == 0)
				fprintf(out, "}\n");
		}
	}
}

/* perf 6.1's clockid_name (util/clockid.c): the first name of the id. */
static const char *clockid_name(uint32_t id)
{
	switch (id) {
	case CLOCK_MONOTONIC:     return "monotonic";
	case CLOCK_MONOTONIC_RAW: return "monotonic_raw";
	case CLOCK_REALTIME:      return "realtime";
	case CLOCK_BOOTTIME:      return "boottime";
	case CLOCK_TAI:           return "tai";
	default:                  return "user configured";
	}
}

/* print_clock_data: the clock, and one moment on it and on the time of day. */
static void print_clock_data(FILE *out, const struct pd_header_info *h)
{
	time_t sec = (time_t)(h->clock_tod_ns / 1000000000ULL);
	unsigned usec = (unsigned)(h->clock_tod_ns % 1000000000ULL / 1000U);
	char date[64], tstr[80];
	struct tm tm;

	if (!h->has_clock_data) {
		fprintf(out, "# reference time disabled\n");
		return;
	}
	if (!localtime_r(&sec, &tm) || !strftime(date, sizeof(date), "%F %T", &tm))
		snprintf(tstr, sizeof(tstr), "<error>");
	else
		snprintf(tstr, sizeof(tstr), "%s.%06u", date, usec);
	fprintf(out, "# clockid: %s (%" PRIu32 ")\n", clockid_name(h->clock_id), h->clock_id);
	fprintf(out, "# reference time: %s = %ld.%06u (TOD) = %ld.%09" PRIu64 " (%s)\n", tstr,
		(long)sec, usec, (long)(h->clock_ref_ns / 1000000000ULL),
		(uint64_t)(h->clock_ref_ns % 1000000000ULL), clockid_name(h->clock_id));
}

/* perf's cpu_map__fprintf of a cpu list string: its cpus as ranges */
static void cpu_ranges(FILE *out, const char *list)
{
	int *cpus = NULL;
	long n = list ? cpulist_parse(list, &cpus) : -1;

	for (long i = 0; i < n; i++) {
		long j = i;

		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (j > i)
			fprintf(out, "%s%d-%d", i ? "," : "", cpus[i], cpus[j]);
		else
			fprintf(out, "%s%d", i ? "," : "", cpus[i]);
		i = j;
	}
	fputc('\n', out);
	free(cpus);
}

/* -I: print_cpu_topology */
static void print_topology(FILE *out, const struct pd_header_info *h)
{
	const struct pd_topology *t = &h->topo;

	for (uint32_t i = 0; i < t->nr_sockets; i++)
		fprintf(out, "# sibling sockets : %s\n", t->sockets[i]);
	for (uint32_t i = 0; t->has_dies && i < t->nr_dies; i++)
		fprintf(out, "# sibling dies    : %s\n", t->dies[i]);
	for (uint32_t i = 0; i < t->nr_threads; i++)
		fprintf(out, "# sibling threads : %s\n", t->threads[i]);
	if (!t->nr_cpus) {
		fprintf(out, t->has_dies ? "# Core ID, Die ID and Socket ID information is not available\n" :
			"# Core ID and Socket ID information is not available\n");
		return;
	}
	for (uint32_t i = 0; i < t->nr_cpus; i++)
		if (t->has_dies)
			fprintf(out, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i,
				(int)t->cpus[i].core, (int)t->cpus[i].die, (int)t->cpus[i].socket);
		else
			fprintf(out, "# CPU %u: Core ID %d, Socket ID %d\n", i, (int)t->cpus[i].core,
				(int)t->cpus[i].socket);
}

/* perf's unit_number__scnprintf: divided by 1024 while more than 1024 is left */
static void unit_number(char *buf, size_t n, uint64_t v)
{
	static const char unit[] = "BKMG";
	int i = 0;

	while (v / 1024 > 1 && i < 3) {
		v /= 1024;
		i++;
	}
	snprintf(buf, n, "%" PRIu64 "%c", v, unit[i]);
}

/* The -I lines of the topology features (perf's full_only printers). */
static void print_full(FILE *out, const struct pd_header_info *h, int feat)
{
	char size[32];

	switch (feat) {
	case PD_FEAT_CPU_TOPOLOGY:
		if (h->has_topo)
			print_topology(out, h);
		break;
	case PD_FEAT_NUMA_TOPOLOGY:
		for (uint32_t i = 0; i < h->nr_numa; i++) {
			const struct pd_numa_node *n = &h->numa[i];

			fprintf(out, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64
				" kB\n", n->node, n->total, n->free);
			fprintf(out, "# node%u cpu list : ", n->node);
			cpu_ranges(out, n->cpus);
		}
		break;
	case PD_FEAT_CACHE:
		if (!h->has_caches)
			break;
		fprintf(out, "# CPU cache info:\n");
		for (uint32_t i = 0; i < h->nr_caches; i++)
			fprintf(out, "#  L%d %-15s %8s [%s]\n", (int)h->caches[i].level,
				h->caches[i].type, h->caches[i].size, h->caches[i].map);
		break;
	case PD_FEAT_MEM_TOPOLOGY:
		if (!h->has_mem)
			break;
		fprintf(out, "# memory nodes (nr %d, block size 0x%llx):\n", (int)h->nr_mem,
			(unsigned long long)h->mem_bsize);
		for (uint32_t i = 0; i < h->nr_mem; i++) {
			unit_number(size, sizeof(size), h->mem_bsize * h->mem[i].blocks);
			fprintf(out, "#  %3" PRIu64 " [%s]: %s\n", h->mem[i].node, size,
				h->mem[i].ranges);
		}
		break;
	default:
		break;
	}
}

static void usec_time(char *buf, size_t n, uint64_t t)
{
	snprintf(buf, n, "%" PRIu64 ".%06" PRIu64, (uint64_t)(t / 1000000000ULL),
		 (uint64_t)((t % 1000000000ULL) / 1000ULL));
}

/* One feature's lines, as perf's feat_ops[feat].print (or its "use -I"). */
static void print_feature(FILE *out, struct pd_session *s, int feat, int full)
{
	const struct pd_header_info *h = pd_session_info(s);
	char a[32], b[32];

	switch (feat) {
	case PD_FEAT_HOSTNAME:  header_string(out, "hostname", h->hostname); break;
	case PD_FEAT_OSRELEASE: header_string(out, "os release", h->osrelease); break;
	case PD_FEAT_VERSION:   header_string(out, "perf version", h->version); break;
	case PD_FEAT_ARCH:      header_string(out, "arch", h->arch); break;
	case PD_FEAT_NRCPUS:
		if (h->has_nrcpus) {
			fprintf(out, "# nrcpus online : %u\n", h->nr_cpus_online);
			fprintf(out, "# nrcpus avail : %u\n", h->nr_cpus_avail);
		}
		break;
	case PD_FEAT_CPUDESC:   header_string(out, "cpudesc", h->cpudesc); break;
	case PD_FEAT_CPUID:     header_string(out, "cpuid", h->cpuid); break;
	case PD_FEAT_TOTAL_MEM:
		if (h->has_total_mem)
			fprintf(out, "# total memory : %" PRIu64 " kB\n", h->total_mem_kb);
		break;
	case PD_FEAT_CMDLINE:
		if (h->cmdline)
			header_cmdline(out, h);
		break;
	case PD_FEAT_EVENT_DESC:
		print_events(out, s);
		break;
	case PD_FEAT_CPU_TOPOLOGY: case PD_FEAT_NUMA_TOPOLOGY: case PD_FEAT_CACHE:
	case PD_FEAT_MEM_TOPOLOGY: case 30 /* HYBRID_TOPOLOGY */:
		if (full && feat != 30)
			print_full(out, h, feat);
		else
			fprintf(out, "# %s info available, use -I to display\n", feat_names[feat]);
		break;
	case 15: fprintf(out, "# contains samples with branch stack\n"); break;
	case 18: fprintf(out, "# contains AUX area data (e.g. instruction trace)\n"); break;
	case 19: fprintf(out, "# contains stat data\n"); break;
	case PD_FEAT_PMU_MAPPINGS:
		if (!h->has_pmus || !h->nr_pmus) {
			fprintf(out, "# pmu mappings: not available\n");
			break;
		}
		for (uint32_t i = 0; i < h->nr_pmus; i++)
			fprintf(out, "%s%s = %" PRIu32, i ? ", " : "# pmu mappings: ",
				h->pmus[i].name, h->pmus[i].type);
		fputc('\n', out);
		break;
	case PD_FEAT_SAMPLE_TIME:
		usec_time(a, sizeof(a), h->first_sample_time);
		usec_time(b, sizeof(b), h->last_sample_time);
		fprintf(out, "# time of first sample : %s\n# time of last sample : %s\n", a, b);
		fprintf(out, "# sample duration : %10.3f ms\n",
			(double)(h->last_sample_time - h->first_sample_time) / 1e6);
		break;
	case PD_FEAT_CLOCKID:
		if (h->has_clockid)
			fprintf(out, "# clockid frequency: %" PRIu64 " MHz\n",
				h->clockid_res_ns * 1000);
		break;
	case PD_FEAT_GROUP_DESC:
		print_groups(out, s);
		break;
	case PD_FEAT_CLOCK_DATA:
		print_clock_data(out, h);
		break;
	case PD_FEAT_COMPRESSED:
		if (h->has_compressed)
			fprintf(out, "# compressed : %s, level = %d, ratio = %d\n",
				h->comp_type == PD_COMP_ZSTD ? "Zstd" : "Unknown",
				(int)h->comp_level, (int)h->comp_ratio);
		break;
	case PD_FEAT_SYSCALL_MAP:     /* tracebox's own: perf prints nothing */
		if (h->has_syscalls)
			fprintf(out, "# syscall map : %u entries for %s, from %s\n",
				h->syscalls.nr, h->syscalls.arch, h->syscalls.source);
		break;
	default:     /* TRACING_DATA, BUILD_ID, DIR_FORMAT, BPF, PMU caps: nothing */
		break;
	}
}

void report_print_header(FILE *out, struct pd_session *s, const char *path, int only, int full)
{
	uint64_t doff, dsize, foff;
	struct stat st;
	int pipe = pd_session_is_pipe(s);
	int have_st = path && (strcmp(path, "-") ? stat(path, &st) : fstat(STDIN_FILENO, &st)) == 0;

	pd_session_layout(s, &doff, &dsize, &foff);
	fprintf(out, "# ========\n");
	if (have_st)
		fprintf(out, "# captured on    : %s", ctime(&st.st_mtime));
	fprintf(out, "# header version : 1\n");
	fprintf(out, "# data offset    : %" PRIu64 "\n", doff);
	fprintf(out, "# data size      : %" PRIu64 "\n", dsize);
	fprintf(out, "# feat offset    : %" PRIu64 "\n", foff);
	/* pipe mode: perf ends the block here and prints each HEADER_FEATURE
	 * record as it reads it, which --header-only never does */
	if (pipe)
		fprintf(out, "# ========\n#\n");
	if (pipe && only) {
		print_feature(out, s, PD_FEAT_SYSCALL_MAP, full);     /* tracebox's own */
		return;
	}
	for (int f = 1; f < PD_FEAT_BITS; f++)
		if (pd_session_has_feature(s, f) && f != PD_FEAT_SYSCALL_MAP)
			print_feature(out, s, f, full);
	/* the map comes as feature 200 or an EVENT_UPDATE; perf shows neither */
	print_feature(out, s, PD_FEAT_SYSCALL_MAP, full);
	if (!pipe) {
		fprintf(out, "# missing features: ");
		for (int f = 1; f < PD_FEAT_LAST_PERF; f++)
			if (!pd_session_has_feature(s, f))
				fprintf(out, "%s ", feat_names[f]);
		fputc('\n', out);
		fprintf(out, "# ========\n#\n");
	}
}
