/*
 * The floor of a configure with the pack's own work in it: a C host that knows the model
 * struct at compile time calls the same pack's configure, as Formwork's figure does, so the
 * difference is what Formwork adds (checking the values, laying them out, the log capture).
 *
 *     pack_configure PACK.so CELL-ID
 *
 * CELL-ID is one of org.formwork.c.rating (typed by value, through libffi with a prepared
 * cif), org.formwork.c.money (typed by pointer, called directly) or com.example.phone
 * (generic `fw_value`s, called directly). Prints "ns <nanoseconds per configure>".
 * Build: cc -O2 -I Sources/CFormwork/include pack_configure.c -o pack_configure -ldl -lffi
 */
#include <dlfcn.h>
#include <ffi.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "formwork.h"

typedef struct rating_model { const char *title; int64_t value; int64_t maximum; bool enabled; fw_string_list labels; } rating_model;
typedef struct money_model {
    const char *title; double amount; const char *currency; int64_t installments; bool recurring; double due; const char *note;
} money_model;

static void quiet(const fw_host *host, fw_log_level level, const char *message) { (void)host; (void)level; (void)message; }

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: pack_configure PACK.so CELL-ID\n"); return 64; }
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!library) { fprintf(stderr, "%s\n", dlerror()); return 66; }
    fw_pack_entry_fn entry = (fw_pack_entry_fn)dlsym(library, FW_PACK_ENTRY_SYMBOL);
    if (!entry) { fprintf(stderr, "no entry\n"); return 66; }
    const fw_pack *pack = entry();
    const fw_cell_type *type = NULL;
    for (uint32_t i = 0; i < pack->cell_type_count; i++) {
        const fw_cell_type *t = (const fw_cell_type *)((const char *)pack->cell_types + (size_t)i * pack->cell_types[0].struct_size);
        if (strcmp(t->id, argv[2]) == 0) type = t;
    }
    if (!type) { fprintf(stderr, "no cell type %s\n", argv[2]); return 66; }
    fw_host host = { .abi = FW_ABI_VERSION_INIT, .struct_size = sizeof host, .name = "baseline", .version = "0", .log = quiet };
    if (pack->init && pack->init(&host) != FW_OK) return 70;
    void *cell = type->create(type, &host);
    if (!cell) return 70;

    const int n = 1000000;
    fw_status failed = FW_OK;
    double start = 0, end = 0;
    if (strcmp(argv[2], "org.formwork.c.rating") == 0) {
        ffi_type *elements[] = { &ffi_type_pointer, &ffi_type_sint64, &ffi_type_sint64, &ffi_type_uint8, NULL, NULL };
        ffi_type *list[] = { &ffi_type_pointer, &ffi_type_uint64, NULL };
        ffi_type list_type = { 0, 0, FFI_TYPE_STRUCT, list };
        elements[4] = &list_type;
        ffi_type structure = { 0, 0, FFI_TYPE_STRUCT, elements };
        ffi_type *arguments[] = { &ffi_type_pointer, &structure };
        ffi_cif cif;
        if (ffi_prep_cif(&cif, FFI_DEFAULT_ABI, 2, &ffi_type_sint32, arguments) != FFI_OK) return 70;
        rating_model m = { "Rating", 3, 5, true, { NULL, 0 } };
        void *values[] = { &cell, &m };
        ffi_arg result;
        start = now();
        for (int i = 0; i < n; i++) {
            ffi_call(&cif, type->typed_configure, &result, values);
            failed |= (fw_status)result;
        }
        end = now();
    } else if (strcmp(argv[2], "org.formwork.c.money") == 0) {
        fw_status (*configure)(void *, const money_model *) = (fw_status (*)(void *, const money_model *))type->typed_configure;
        money_model m = { "Amount", 3.5, "EUR", 1, false, NAN, NULL };
        start = now();
        for (int i = 0; i < n; i++) failed |= configure(cell, &m);
        end = now();
    } else {
        fw_value v[4];
        memset(v, 0, sizeof v);
        v[0].type = FW_FIELD_STRING;
        v[0].as.string = "Phone";
        v[1].type = FW_FIELD_STRING;
        v[1].as.string = "20 7946 0000";
        start = now();
        for (int i = 0; i < n; i++) failed |= type->configure(cell, v, 4);
        end = now();
    }
    type->destroy(cell);
    if (failed != FW_OK) { fprintf(stderr, "configure failed\n"); return 70; }
    printf("ns %.1f\n", (end - start) / n);
    return 0;
}
