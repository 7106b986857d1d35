/*
 * The C baseline for `formwork list`: dlopen every .so in each directory given,
 * call its formwork_pack_v1 entry and walk its descriptors (every string of the
 * pack, its cell types and their fields), printing one line per cell type.
 *
 *     list_packs DIRECTORY...
 *
 * The suite passes the directories `formwork list` reads: the generated packs and the
 * directory of the first-party packs beside the executable (Swift packs: opening the
 * first one loads the shared Swift runtime, here as in Formwork's scanner).
 * Build: cc -O2 -I Sources/CFormwork/include list_packs.c -o list_packs -ldl
 */
#define _DEFAULT_SOURCE
#include "formwork.h"
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static size_t walk(const fw_pack *pack) {
    size_t bytes = strlen(pack->id) + strlen(pack->name) + strlen(pack->version);
    for (uint32_t i = 0; i < pack->cell_type_count; i++) {
        const fw_cell_type *cell = (const fw_cell_type *)((const char *)pack->cell_types + (size_t)i * pack->cell_types[0].struct_size);
        bytes += strlen(cell->id) + strlen(cell->name);
        for (uint32_t f = 0; f < cell->field_count; f++) {
            const fw_field *field = (const fw_field *)((const char *)cell->fields + (size_t)f * cell->fields[0].struct_size);
            bytes += strlen(field->name) + (field->label ? strlen(field->label) : 0);
        }
        printf("%s\t%s\t%u fields\n", cell->id, cell->name, cell->field_count);
    }
    return bytes;
}

int main(int argc, char **argv) {
    if (argc < 2) return 64;
    size_t total = 0;
    int packs = 0;
    for (int d = 1; d < argc; d++) {
        DIR *dir = opendir(argv[d]);
        if (!dir) return 66;
        struct dirent *entry;
        char path[4096];
        while ((entry = readdir(dir))) {
            size_t n = strlen(entry->d_name);
            if (n < 3 || strcmp(entry->d_name + n - 3, ".so") != 0) continue;
            snprintf(path, sizeof path, "%s/%s", argv[d], entry->d_name);
            void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
            if (!library) continue;
            fw_pack_entry_fn fn = (fw_pack_entry_fn)dlsym(library, FW_PACK_ENTRY_SYMBOL);
            const fw_pack *pack = fn ? fn() : NULL;
            if (pack) {
                total += walk(pack);
                packs++;
            }
        }
        closedir(dir);
    }
    fprintf(stderr, "%d packs, %zu bytes of descriptor strings\n", packs, total);
    return 0;
}
