/*
 * m0count: a QEMU 7.2 TCG plugin (plugin API version 1) that counts the instructions a
 * Cortex-M0 guest executes, sorted into the classes the Cortex-M0/M0+ cycle tables tell apart,
 * and prints the running counts every time the instruction at one address (the firmware's
 * marker function) executes. `cargo xtask m0 --cost` builds it with the host C compiler and
 * turns the counts into cycles (xtask/src/cost.rs holds the cycle model, so it is unit-tested
 * and can switch between the M0+ and M0 timings without rerunning QEMU).
 *
 * Where the approach comes from: the project's recipe in shared/cross-testing.md §2a (a
 * self-contained plugin that declares the few API-v1 entry points itself, because Debian's
 * QEMU ships neither plugins nor qemu-plugin.h; per-TB inline counters; a callback on the
 * marker; taken conditional branches detected by comparing the next executed TB with the
 * branch's fall-through address). The instruction classes follow ARM's Cortex-M0+ and
 * Cortex-M0 Technical Reference Manuals (DDI0484, DDI0432), "Processor instruction timings".
 * This file is written for this project; it is not QEMU's `insn` or `hotblocks` plugin.
 *
 * Arguments: mark=0xADDR (the marker's address; the Thumb bit is ignored).
 * Output (with `-d plugin`, to QEMU's log): one line per mark and one at exit,
 *   m0count mark <n> insns=.. alu=.. mul=.. ldst=.. multi=.. poppc=.. regs=.. b=.. bcc=..
 *     taken=.. bl=.. bx=.. pcw=.. sys=..
 * (one line each), all counts running totals since reset.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- the part of QEMU 7.2's qemu-plugin.h this plugin uses (API version 1) --- */
typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef struct {
    const char *target_name;
    struct { int min, cur; } version;
    bool system_emulation;
    int smp_vcpus, max_vcpus;
} qemu_info_t;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t, struct qemu_plugin_tb *);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t, void *);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int, void *);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t, qemu_plugin_vcpu_tb_trans_cb_t);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *, enum qemu_plugin_op,
                                              void *, uint64_t);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *,
                                            qemu_plugin_vcpu_udata_cb_t,
                                            enum qemu_plugin_cb_flags, void *);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *, size_t);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t, qemu_plugin_udata_cb_t, void *);
void qemu_plugin_outs(const char *);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* --- instruction classes --- */
enum cls {
    C_ALU,   /* everything single-cycle: data processing, shifts, moves, compares, ... */
    C_MUL,   /* MULS (1 cycle with the fast multiplier, 32 with the small one) */
    C_LDST,  /* single loads and stores, literal loads included */
    C_MULTI, /* LDM, STM, PUSH, POP without PC: 1 + N */
    C_POPPC, /* POP {..., PC}: 3 + N (M0+), 4 + N (M0) */
    C_B,     /* unconditional B */
    C_BCC,   /* conditional branch, executed (taken or not) */
    C_BL,    /* BL (32-bit) */
    C_BX,    /* BX, BLX register */
    C_PCW,   /* ADD PC, Rm / MOV PC, Rm */
    C_SYS,   /* other 32-bit: MRS, MSR, DMB, DSB, ISB, UDF.W */
    C_REGS,  /* not a class: registers transferred by MULTI and POPPC */
    C_TAKEN, /* not a class: conditional branches taken (counted at run time) */
    C_N
};
static const char *const names[C_N] = {"alu", "mul", "ldst", "multi", "poppc", "b", "bcc",
                                       "bl", "bx", "pcw", "sys", "regs", "taken"};

static uint64_t count[C_N], insns, mark_addr = UINT64_MAX, fallthrough;
static unsigned long marks;

/* Sorts one Thumb instruction (ARMv6-M encodings) by its halfwords; `*regs` gets the number
 * of registers a multiple transfer moves (PC not counted: the tables add it in the base). */
static enum cls classify(uint16_t hw, uint16_t hw2, unsigned *regs)
{
    *regs = 0;
    if ((hw & 0xF800) == 0xF000 && (hw2 & 0xD000) == 0xD000)
        return C_BL;
    if ((hw & 0xF800) >= 0xE800)                          /* other 32-bit encodings */
        return C_SYS;
    if ((hw & 0xFF00) == 0x4700)                          /* BX Rm, BLX Rm */
        return C_BX;
    if ((hw & 0xFC00) == 0x4400 && (hw & 0x0300) != 0x0100 /* ADD/MOV (high), not CMP */
        && (((hw >> 4) & 8) | (hw & 7)) == 15)            /* ... with PC as destination */
        return C_PCW;
    if ((hw & 0xFFC0) == 0x4340)                          /* MULS */
        return C_MUL;
    if ((hw & 0xF800) == 0x4800 || (hw >= 0x5000 && hw < 0xA000))
        return C_LDST;                                    /* LDR literal, LDR/STR{,B,H,SB,SH} */
    if ((hw & 0xFE00) == 0xB400) {                        /* PUSH {list, LR?} */
        *regs = __builtin_popcount(hw & 0x1FF);
        return C_MULTI;
    }
    if ((hw & 0xFE00) == 0xBC00) {                        /* POP {list, PC?} */
        *regs = __builtin_popcount(hw & 0xFF);
        return (hw & 0x100) ? C_POPPC : C_MULTI;
    }
    if ((hw & 0xF000) == 0xC000) {                        /* LDM, STM */
        *regs = __builtin_popcount(hw & 0xFF);
        return C_MULTI;
    }
    if ((hw & 0xF000) == 0xD000 && (hw & 0x0F00) < 0x0E00)
        return C_BCC;                                     /* B<cond> (0xDE is UDF, 0xDF SVC) */
    if ((hw & 0xF800) == 0xE000)
        return C_B;
    return C_ALU;
}

static void print_counts(const char *what)
{
    char line[512];
    int n = snprintf(line, sizeof line, "m0count %s insns=%llu", what, (unsigned long long)insns);
    for (int c = 0; c < C_N && n > 0 && (size_t)n < sizeof line; c++)
        n += snprintf(line + n, sizeof line - n, " %s=%llu", names[c],
                      (unsigned long long)count[c]);
    if (n > 0 && (size_t)n < sizeof line - 1) {
        line[n] = '\n';
        line[n + 1] = 0;
    }
    qemu_plugin_outs(line);
}

/* A conditional branch ran: remember where it falls through to. */
static void on_bcc(unsigned int vcpu, void *fall)
{
    (void)vcpu;
    fallthrough = (uint64_t)(uintptr_t)fall;
}

/* A TB starts: if a conditional branch ran just before and this is not its fall-through
 * address, the branch was taken. (A branch always ends a TB, so the next instruction that runs
 * starts one.) */
static void on_tb_start(unsigned int vcpu, void *pc)
{
    (void)vcpu;
    if (fallthrough) {
        if ((uint64_t)(uintptr_t)pc != fallthrough)
            count[C_TAKEN]++;
        fallthrough = 0;
    }
}

static void on_mark(unsigned int vcpu, void *udata)
{
    char what[32];
    (void)vcpu;
    (void)udata;
    snprintf(what, sizeof what, "mark %lu", marks++);
    print_counts(what);
}

static void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    uint64_t per_class[C_N] = {0};
    size_t n = qemu_plugin_tb_n_insns(tb);
    (void)id;
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(insn);
        const uint8_t *bytes = qemu_plugin_insn_data(insn);
        uint16_t hw = (uint16_t)(bytes[0] | bytes[1] << 8);
        int wide = (hw & 0xF800) >= 0xE800;
        uint16_t hw2 = wide ? (uint16_t)(bytes[2] | bytes[3] << 8) : 0;
        unsigned regs;
        enum cls c = classify(hw, hw2, &regs);
        per_class[c]++;
        per_class[C_REGS] += regs;
        if (i == 0)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_tb_start, QEMU_PLUGIN_CB_NO_REGS,
                                                   (void *)(uintptr_t)pc);
        if (pc == mark_addr)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark, QEMU_PLUGIN_CB_NO_REGS, NULL);
        if (c == C_BCC)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_bcc, QEMU_PLUGIN_CB_NO_REGS,
                                                   (void *)(uintptr_t)(pc + 2));
    }
    /* Inline adds run when the TB is entered, before any exec callback of its instructions:
     * a mark therefore includes the whole TB the marker starts, at every mark alike. */
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &insns, n);
    for (int c = 0; c < C_N; c++)
        if (per_class[c])
            qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &count[c],
                                                     per_class[c]);
}

static void on_exit_cb(qemu_plugin_id_t id, void *udata)
{
    (void)id;
    (void)udata;
    print_counts("exit");
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (!strncmp(argv[i], "mark=", 5))
            mark_addr = strtoull(argv[i] + 5, NULL, 0) & ~1ull;
        else {
            fprintf(stderr, "m0count: unknown argument %s\n", argv[i]);
            return -1;
        }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
    qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
    return 0;
}
