/* pd_format.h - perf.data (PERFILE2) constants and unaligned loads.
 * Spec: shared/docs/perf-data-format.md; perf_event_open(2) for the attr. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_FORMAT_H
#define PD_FORMAT_H

#include <stdint.h>
#include <string.h>

#define PD_MAGIC2          0x32454c4946524550ULL   /* "PERFILE2" */
#define PD_MAGIC2_SWAPPED  0x50455246494c4532ULL
#define PD_FILE_HEADER_SIZE 104
#define PD_FILE_HEADER_OLD  72
#define PD_PIPE_HEADER_SIZE 16
#define PD_ATTR_SIZE_VER0   64
#define PD_ATTR_SIZE_MAX    128     /* perf 6.1's attr; it rejects anything larger */
#define PD_ATTR_SIZE_LIMIT  4096    /* the kernel's bound (a page): larger attrs are read
				       for their first 128 bytes */
#define PD_EVENT_HEADER     8

/* perf_event_attr.type */
enum { PD_TYPE_HARDWARE = 0, PD_TYPE_SOFTWARE = 1, PD_TYPE_TRACEPOINT = 2 };

/* sample_type bits */
#define PD_S_IP         (1ULL << 0)
#define PD_S_TID        (1ULL << 1)
#define PD_S_TIME       (1ULL << 2)
#define PD_S_ADDR       (1ULL << 3)
#define PD_S_READ       (1ULL << 4)
#define PD_S_CALLCHAIN  (1ULL << 5)
#define PD_S_ID         (1ULL << 6)
#define PD_S_CPU        (1ULL << 7)
#define PD_S_PERIOD     (1ULL << 8)
#define PD_S_STREAM_ID  (1ULL << 9)
#define PD_S_RAW        (1ULL << 10)
#define PD_S_BRANCH_STACK   (1ULL << 11)
#define PD_S_REGS_USER      (1ULL << 12)
#define PD_S_STACK_USER     (1ULL << 13)
#define PD_S_WEIGHT         (1ULL << 14)
#define PD_S_DATA_SRC       (1ULL << 15)
#define PD_S_IDENTIFIER     (1ULL << 16)
#define PD_S_TRANSACTION    (1ULL << 17)
#define PD_S_REGS_INTR      (1ULL << 18)
#define PD_S_PHYS_ADDR      (1ULL << 19)
#define PD_S_AUX            (1ULL << 20)
#define PD_S_CGROUP         (1ULL << 21)
#define PD_S_DATA_PAGE_SIZE (1ULL << 22)
#define PD_S_CODE_PAGE_SIZE (1ULL << 23)
#define PD_S_WEIGHT_STRUCT  (1ULL << 24)
/* Every bit perf 6.1 decodes (PERF_SAMPLE_MAX = 1 << 25); the layout past
 * a newer bit is unknown, so such files are refused. */
#define PD_S_KNOWN ((1ULL << 25) - 1)

/* read_format bits */
#define PD_FMT_TOTAL_TIME_ENABLED (1ULL << 0)
#define PD_FMT_TOTAL_TIME_RUNNING (1ULL << 1)
#define PD_FMT_ID                 (1ULL << 2)
#define PD_FMT_GROUP              (1ULL << 3)
#define PD_FMT_LOST               (1ULL << 4)
/* branch_sample_type: the stack starts with hw_idx */
#define PD_BRANCH_HW_INDEX        (1ULL << 17)

/* attr flag bits (u64 at offset 40) */
#define PD_ATTR_FLAG_SAMPLE_ID_ALL (1ULL << 18)

/* offsets inside perf_event_attr */
#define PD_ATTR_OFF_TYPE        0
#define PD_ATTR_OFF_SIZE        4
#define PD_ATTR_OFF_CONFIG      8
#define PD_ATTR_OFF_PERIOD      16
#define PD_ATTR_OFF_SAMPLE_TYPE 24
#define PD_ATTR_OFF_READ_FORMAT 32
#define PD_ATTR_OFF_FLAGS       40
#define PD_ATTR_OFF_BRANCH_TYPE 72      /* VER2 */
#define PD_ATTR_OFF_REGS_USER   80      /* VER3 */
#define PD_ATTR_OFF_REGS_INTR   96      /* VER4 */

/* record types */
enum {
	PD_REC_MMAP = 1, PD_REC_LOST = 2, PD_REC_COMM = 3, PD_REC_EXIT = 4,
	PD_REC_THROTTLE = 5, PD_REC_UNTHROTTLE = 6, PD_REC_FORK = 7,
	PD_REC_READ = 8, PD_REC_SAMPLE = 9, PD_REC_MMAP2 = 10,
	PD_REC_LOST_SAMPLES = 13, PD_REC_KSYMBOL = 17,
	PD_REC_KERNEL_LAST = 21,          /* AUX_OUTPUT_HW_ID, the last perf 6.1 knows */
	PD_REC_USER_START = 64,
	PD_REC_HEADER_ATTR = 64, PD_REC_HEADER_EVENT_TYPE = 65,
	PD_REC_HEADER_TRACING_DATA = 66, PD_REC_HEADER_BUILD_ID = 67,
	PD_REC_FINISHED_ROUND = 68, PD_REC_ID_INDEX = 69,
	PD_REC_THREAD_MAP = 73, PD_REC_CPU_MAP = 74,
	PD_REC_EVENT_UPDATE = 78, PD_REC_TIME_CONV = 79,
	PD_REC_HEADER_FEATURE = 80, PD_REC_COMPRESSED = 81,
	PD_REC_FINISHED_INIT = 82,
	PD_REC_MAX = 128
};

#define PD_MISC_COMM_EXEC (1u << 13)
#define PD_MISC_MMAP_BUILD_ID (1u << 14)   /* MMAP2 carries a build-id */
#define PD_MISC_BUILD_ID_SIZE (1u << 15)   /* HEADER_BUILD_ID: its size byte is valid */
#define PD_MISC_FORK_EXEC     (1u << 13)   /* FORK: synthesized by perf record for a running task */

/* EVENT_UPDATE types of tracebox's own (perf 6.1's tools pass over update
 * types they do not know, when the record names a real sample id):
 * the syscall map ("tbox"), first record of the data in file and pipe mode;
 * and the mark of a recording still being written ("tbxu"): trace-record
 * streams a regular file in pipe format and turns it into file format at a
 * clean end, so a file that still reads as a pipe stream with this mark was
 * cut (SIGKILL, full disk). See pd_writer.h. */
#define PD_EVENT_UPDATE_NAME        2ULL   /* perf's PERF_EVENT_UPDATE__NAME */
#define PD_EVENT_UPDATE_SYSCALL_MAP 0x74626f78ULL
#define PD_EVENT_UPDATE_UNFINISHED  0x75786274ULL

/* feature bits */
enum {
	PD_FEAT_TRACING_DATA = 1, PD_FEAT_BUILD_ID = 2, PD_FEAT_HOSTNAME = 3,
	PD_FEAT_OSRELEASE = 4, PD_FEAT_VERSION = 5, PD_FEAT_ARCH = 6,
	PD_FEAT_NRCPUS = 7, PD_FEAT_CPUDESC = 8, PD_FEAT_CPUID = 9,
	PD_FEAT_TOTAL_MEM = 10, PD_FEAT_CMDLINE = 11, PD_FEAT_EVENT_DESC = 12,
	PD_FEAT_CPU_TOPOLOGY = 13, PD_FEAT_NUMA_TOPOLOGY = 14, PD_FEAT_PMU_MAPPINGS = 16,
	PD_FEAT_CACHE = 20, PD_FEAT_SAMPLE_TIME = 21, PD_FEAT_MEM_TOPOLOGY = 22,
	PD_FEAT_BPF_PROG_INFO = 25, PD_FEAT_BPF_BTF = 26, PD_FEAT_PMU_CAPS = 31,
	PD_FEAT_COMPRESSED = 27, PD_FEAT_CLOCKID = 23, PD_FEAT_GROUP_DESC = 17,
	PD_FEAT_AUXTRACE = 18, PD_FEAT_STAT = 19,
	PD_FEAT_CLOCK_DATA = 29,
	PD_FEAT_LAST_PERF = 32,          /* HEADER_LAST_FEATURE in perf 6.1 */
	/* tracebox's old private bit: read, no longer written (perf 6.1's
	 * inject calls a handler past its 32-entry table for it) */
	PD_FEAT_SYSCALL_MAP = 200,
	PD_FEAT_BITS = 256
};

static inline uint16_t pd_u16(const void *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static inline uint32_t pd_u32(const void *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t pd_u64(const void *p) { uint64_t v; memcpy(&v, p, 8); return v; }

#endif
