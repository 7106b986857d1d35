/* libffi for Swift 6: the ffi_type_* globals are mutable C globals, which Swift 6
 * rejects as shared mutable state, so they are reached through these prefixed
 * accessors instead. */
#ifndef FORMWORK_CFFI_SHIM_H
#define FORMWORK_CFFI_SHIM_H
#include <ffi.h>

static inline ffi_type *cffi_type_void(void) { return &ffi_type_void; }
static inline ffi_type *cffi_type_uint8(void) { return &ffi_type_uint8; }
static inline ffi_type *cffi_type_sint32(void) { return &ffi_type_sint32; }
static inline ffi_type *cffi_type_uint32(void) { return &ffi_type_uint32; }
static inline ffi_type *cffi_type_sint64(void) { return &ffi_type_sint64; }
static inline ffi_type *cffi_type_uint64(void) { return &ffi_type_uint64; }
static inline ffi_type *cffi_type_double(void) { return &ffi_type_double; }
static inline ffi_type *cffi_type_pointer(void) { return &ffi_type_pointer; }
static inline ffi_abi cffi_default_abi(void) { return FFI_DEFAULT_ABI; }

/* Direct calls of a by-value typed configure, `fw_status (*)(void *cell, MODEL model)`,
 * where the platform's calling convention for MODEL is known from its size and the
 * class of each of its eight-byte words: x86-64 System V. There a struct of more than
 * 16 bytes (class MEMORY) is copied onto the stack whatever its members (they are at
 * most 8-byte aligned: pointers, bool, int64_t, double, fw_string_list), so a struct of
 * as many 64-bit words is passed the same way; one of up to 16 bytes travels in
 * registers, each eight-byte word in a general register (INTEGER) or, when it holds
 * only a double, in an SSE register. `model` must be readable for its size rounded up to
 * whole words (at least one). libffi (`ffi_call` with a prepared cif) does the same work
 * at run time for every call, more slowly (docs/performance.md); elsewhere the host keeps using it.
 * Thread and ownership rules: those of the function called. */
#if defined(__x86_64__) && !defined(_WIN32)
#define CFFI_DIRECT_BY_VALUE 1
#include <stdint.h>
#include <string.h>

/** The eight-byte words of a model in registers: their count and which hold a double. */
enum {
    CFFI_REGS_I = 0,  /**< one word, general register */
    CFFI_REGS_S = 1,  /**< one word, SSE register */
    CFFI_REGS_II = 2,
    CFFI_REGS_IS = 3,
    CFFI_REGS_SI = 4,
    CFFI_REGS_SS = 5
};

/** Calls `fn(cell, MODEL)` for a model of up to 16 bytes whose words are classed `kind` (CFFI_REGS_*). */
static inline int32_t cffi_direct_in_registers(void (*fn)(void), void *cell, const void *model, int32_t kind) {
    uint64_t a, b = 0;
    double x, y = 0;
    memcpy(&a, model, 8);
    memcpy(&x, model, 8);
    if (kind >= CFFI_REGS_II) {
        memcpy(&b, (const char *)model + 8, 8);
        memcpy(&y, (const char *)model + 8, 8);
    }
    switch (kind) {
    case CFFI_REGS_I: return ((int32_t (*)(void *, uint64_t))fn)(cell, a);
    case CFFI_REGS_S: return ((int32_t (*)(void *, double))fn)(cell, x);
    case CFFI_REGS_II: return ((int32_t (*)(void *, uint64_t, uint64_t))fn)(cell, a, b);
    case CFFI_REGS_IS: return ((int32_t (*)(void *, uint64_t, double))fn)(cell, a, y);
    case CFFI_REGS_SI: return ((int32_t (*)(void *, double, uint64_t))fn)(cell, x, b);
    default: return ((int32_t (*)(void *, double, double))fn)(cell, x, y);
    }
}

#define CFFI_WORDS(n) typedef struct cffi_words_##n { uint64_t w[n]; } cffi_words_##n;
CFFI_WORDS(3)
CFFI_WORDS(4)
CFFI_WORDS(5)
CFFI_WORDS(6)
CFFI_WORDS(7)
CFFI_WORDS(8)
CFFI_WORDS(9)
CFFI_WORDS(10)
CFFI_WORDS(11)
CFFI_WORDS(12)
CFFI_WORDS(13)
CFFI_WORDS(14)
CFFI_WORDS(15)
CFFI_WORDS(16)
CFFI_WORDS(17)
CFFI_WORDS(18)
CFFI_WORDS(19)
CFFI_WORDS(20)
CFFI_WORDS(21)
CFFI_WORDS(22)
CFFI_WORDS(23)
CFFI_WORDS(24)
CFFI_WORDS(25)
CFFI_WORDS(26)
CFFI_WORDS(27)
CFFI_WORDS(28)
CFFI_WORDS(29)
CFFI_WORDS(30)
CFFI_WORDS(31)
CFFI_WORDS(32)
CFFI_WORDS(33)
CFFI_WORDS(34)
CFFI_WORDS(35)
CFFI_WORDS(36)
CFFI_WORDS(37)
CFFI_WORDS(38)
CFFI_WORDS(39)
CFFI_WORDS(40)
CFFI_WORDS(41)
CFFI_WORDS(42)
CFFI_WORDS(43)
CFFI_WORDS(44)
CFFI_WORDS(45)
CFFI_WORDS(46)
CFFI_WORDS(47)
CFFI_WORDS(48)
CFFI_WORDS(49)
CFFI_WORDS(50)
CFFI_WORDS(51)
CFFI_WORDS(52)
CFFI_WORDS(53)
CFFI_WORDS(54)
CFFI_WORDS(55)
CFFI_WORDS(56)
CFFI_WORDS(57)
CFFI_WORDS(58)
CFFI_WORDS(59)
CFFI_WORDS(60)
CFFI_WORDS(61)
CFFI_WORDS(62)
CFFI_WORDS(63)
CFFI_WORDS(64)
#define CFFI_STACK_CASE(n) \
    case n: { \
        cffi_words_##n m; \
        memcpy(&m, model, sizeof m); \
        *status = ((int32_t (*)(void *, cffi_words_##n))fn)(cell, m); \
        return 1; \
    }

/** Calls `fn(cell, MODEL)` for a model of `words` 64-bit words (3 to 64), passed on the stack; 0 (nothing
 * called) for any other count. */
static inline int32_t cffi_direct_on_stack(void (*fn)(void), void *cell, const void *model, uint32_t words, int32_t *status) {
    switch (words) {
    CFFI_STACK_CASE(3)
    CFFI_STACK_CASE(4)
    CFFI_STACK_CASE(5)
    CFFI_STACK_CASE(6)
    CFFI_STACK_CASE(7)
    CFFI_STACK_CASE(8)
    CFFI_STACK_CASE(9)
    CFFI_STACK_CASE(10)
    CFFI_STACK_CASE(11)
    CFFI_STACK_CASE(12)
    CFFI_STACK_CASE(13)
    CFFI_STACK_CASE(14)
    CFFI_STACK_CASE(15)
    CFFI_STACK_CASE(16)
    CFFI_STACK_CASE(17)
    CFFI_STACK_CASE(18)
    CFFI_STACK_CASE(19)
    CFFI_STACK_CASE(20)
    CFFI_STACK_CASE(21)
    CFFI_STACK_CASE(22)
    CFFI_STACK_CASE(23)
    CFFI_STACK_CASE(24)
    CFFI_STACK_CASE(25)
    CFFI_STACK_CASE(26)
    CFFI_STACK_CASE(27)
    CFFI_STACK_CASE(28)
    CFFI_STACK_CASE(29)
    CFFI_STACK_CASE(30)
    CFFI_STACK_CASE(31)
    CFFI_STACK_CASE(32)
    CFFI_STACK_CASE(33)
    CFFI_STACK_CASE(34)
    CFFI_STACK_CASE(35)
    CFFI_STACK_CASE(36)
    CFFI_STACK_CASE(37)
    CFFI_STACK_CASE(38)
    CFFI_STACK_CASE(39)
    CFFI_STACK_CASE(40)
    CFFI_STACK_CASE(41)
    CFFI_STACK_CASE(42)
    CFFI_STACK_CASE(43)
    CFFI_STACK_CASE(44)
    CFFI_STACK_CASE(45)
    CFFI_STACK_CASE(46)
    CFFI_STACK_CASE(47)
    CFFI_STACK_CASE(48)
    CFFI_STACK_CASE(49)
    CFFI_STACK_CASE(50)
    CFFI_STACK_CASE(51)
    CFFI_STACK_CASE(52)
    CFFI_STACK_CASE(53)
    CFFI_STACK_CASE(54)
    CFFI_STACK_CASE(55)
    CFFI_STACK_CASE(56)
    CFFI_STACK_CASE(57)
    CFFI_STACK_CASE(58)
    CFFI_STACK_CASE(59)
    CFFI_STACK_CASE(60)
    CFFI_STACK_CASE(61)
    CFFI_STACK_CASE(62)
    CFFI_STACK_CASE(63)
    CFFI_STACK_CASE(64)
    default: return 0;
    }
}
#undef CFFI_STACK_CASE
#undef CFFI_WORDS
#endif
#endif
