/*
 * The floor of a typed configure: an `ffi_call` of `fw_status (*)(void *, MODEL)` with a
 * prepared cif (the model: the rating cell's five members), and the same function called
 * directly. Prints nanoseconds per call for each: "ffi <ns>\ndirect <ns>\n".
 * Build: cc -O2 ffi_floor.c -o ffi_floor -lffi
 */
#include <ffi.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

typedef struct model { const char *title; int64_t value; const char *labels; double scale; int32_t flags; } model;
static volatile int64_t sink;

__attribute__((noinline)) static int32_t configure(void *cell, model m) {
    sink += m.value + (int64_t)m.scale + (cell != 0) + m.flags + (m.title != 0);
    return 0;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

int main(void) {
    ffi_type *elements[] = { &ffi_type_pointer, &ffi_type_sint64, &ffi_type_pointer, &ffi_type_double, &ffi_type_sint32, NULL };
    ffi_type structure = { 0, 0, FFI_TYPE_STRUCT, elements };
    ffi_type *arguments[] = { &ffi_type_pointer, &structure };
    ffi_cif cif;
    if (ffi_prep_cif(&cif, FFI_DEFAULT_ABI, 2, &ffi_type_sint32, arguments) != FFI_OK) return 70;
    model m = { "Rating", 3, "a,b,c", 1.5, 0 };
    void *cell = &m;
    void *values[] = { &cell, &m };
    ffi_arg result;
    const int n = 2000000;
    double start = now();
    for (int i = 0; i < n; i++) { m.value = i; ffi_call(&cif, FFI_FN(configure), &result, values); }
    double ffi = (now() - start) / n;
    int32_t (*volatile direct)(void *, model) = configure;
    start = now();
    for (int i = 0; i < n; i++) { m.value = i; direct(cell, m); }
    double call = (now() - start) / n;
    printf("ffi %.1f\ndirect %.1f\n", ffi, call);
    return 0;
}
