/* A pack of typed-by-value cells whose models have every shape the host passes differently: one word or
 * two in general or SSE registers (a double alone, an integer, a bool, a date; every pair of the two
 * classes; two strings; a string list), three bools, a struct of more than 16 bytes on the stack, one of 17
 * bools (a size that is not whole words), and one of 70 integers (560 bytes, more than the host calls
 * directly: libffi). Each cell writes the model it received as text (`name=value;` per member, schema
 * order) and draws it as one value node, so a test can check what arrived through each path: the direct
 * call, libffi, and the generic configure.
 * Built with cc -shared -fPIC -fvisibility=hidden against the header alone, at test time. */
#include "formwork.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct by_value_cell {
    char text[4096];
} by_value_cell;

/* One member's kind in a model, as the formatter reads it. */
enum { K_NUMBER, K_INTEGER, K_BOOL, K_STRING, K_LIST };

typedef struct member {
    const char *name;
    int kind;
    size_t offset;
} member;

static void append(by_value_cell *cell, const char *text) {
    size_t used = strlen(cell->text);
    snprintf(cell->text + used, sizeof cell->text - used, "%s", text);
}

static void put(by_value_cell *cell, const char *name, int kind, const void *at) {
    char piece[512];
    switch (kind) {
    case K_NUMBER: snprintf(piece, sizeof piece, "%s=%.17g;", name, *(const double *)at); break;
    case K_INTEGER: snprintf(piece, sizeof piece, "%s=%lld;", name, (long long)*(const int64_t *)at); break;
    case K_BOOL: snprintf(piece, sizeof piece, "%s=%s;", name, *(const bool *)at ? "true" : "false"); break;
    case K_STRING: {
        const char *s = *(const char *const *)at;
        snprintf(piece, sizeof piece, "%s=%s;", name, s ? s : "(null)");
        break;
    }
    default: {
        const fw_string_list *list = at;
        size_t i;
        snprintf(piece, sizeof piece, "%s=[", name);
        append(cell, piece);
        for (i = 0; i < list->count; i++) {
            if (i > 0) append(cell, ",");
            append(cell, list->items[i]);
        }
        append(cell, "];");
        return;
    }
    }
    append(cell, piece);
}

static void describe(by_value_cell *cell, const member *members, size_t count, const void *model) {
    size_t i;
    cell->text[0] = 0;
    for (i = 0; i < count; i++) put(cell, members[i].name, members[i].kind, (const char *)model + members[i].offset);
}

static void describe_values(by_value_cell *cell, const member *members, size_t count, const fw_value *values, uint32_t n) {
    size_t i;
    static const fw_string_list empty = { NULL, 0 };
    cell->text[0] = 0;
    for (i = 0; i < count; i++) {
        const fw_value *v = i < n && values[i].type != FW_FIELD_NONE ? &values[i] : NULL;
        double nan = __builtin_nan(""), zero = 0;
        int64_t none = 0;
        bool no = false;
        const char *null = NULL;
        switch (members[i].kind) {
        case K_NUMBER: put(cell, members[i].name, K_NUMBER, v ? &v->as.number : (strcmp(members[i].name, "when") == 0 ? &nan : &zero)); break;
        case K_INTEGER: put(cell, members[i].name, K_INTEGER, v ? &v->as.integer : &none); break;
        case K_BOOL: put(cell, members[i].name, K_BOOL, v ? &v->as.boolean : &no); break;
        case K_STRING: put(cell, members[i].name, K_STRING, v ? &v->as.string : &null); break;
        default: put(cell, members[i].name, K_LIST, v ? &v->as.list : &empty); break;
        }
    }
}

static void *cell_create(const fw_cell_type *type, const fw_host *host) {
    (void)type; (void)host;
    return calloc(1, sizeof(by_value_cell));
}
static void cell_destroy(void *cell) { free(cell); }
static fw_status cell_render(void *cell, const fw_canvas *canvas, void *ctx) {
    canvas->value(ctx, "model", ((by_value_cell *)cell)->text);
    return FW_OK;
}

/* A field of the schema, and the same member as the formatter reads it. */
#define F(kind_, name_) { .struct_size = sizeof(fw_field), .type = kind_, .name = #name_ }
#define M(kind_, model_, name_) { #name_, kind_, offsetof(model_, name_) }
#define COUNT(array) (sizeof array / sizeof array[0])

/* The typed (by value) and generic configure of cell `name`, each writing what it received. */
#define FUNCTIONS(name) \
    static fw_status typed_##name(void *cell, model_##name model) { \
        describe(cell, members_##name, COUNT(members_##name), &model); \
        return FW_OK; \
    } \
    static fw_status generic_##name(void *cell, const fw_value *values, uint32_t count) { \
        describe_values(cell, members_##name, COUNT(members_##name), values, count); \
        return FW_OK; \
    }

#define CELL(c_) \
    { .struct_size = sizeof(fw_cell_type), .flags = FW_CELL_TYPED_CONFIGURE, .id = "org.test.by-value." #c_, \
      .name = "By value " #c_, .fields = fields_##c_, .field_count = COUNT(fields_##c_), .create = cell_create, \
      .destroy = cell_destroy, .configure = generic_##c_, .render = cell_render, .typed_convention = FW_TYPED_BY_VALUE, \
      .model_alignment = _Alignof(model_##c_), .model_size = sizeof(model_##c_), \
      .typed_configure = (fw_typed_configure_fn)typed_##c_ }

typedef struct model_d { double x; } model_d;
static const fw_field fields_d[] = { F(FW_FIELD_NUMBER, x) };
static const member members_d[] = { M(K_NUMBER, model_d, x) };
FUNCTIONS(d)

typedef struct model_i { int64_t n; } model_i;
static const fw_field fields_i[] = { F(FW_FIELD_INTEGER, n) };
static const member members_i[] = { M(K_INTEGER, model_i, n) };
FUNCTIONS(i)

typedef struct model_b { bool flag; } model_b;
static const fw_field fields_b[] = { F(FW_FIELD_BOOL, flag) };
static const member members_b[] = { M(K_BOOL, model_b, flag) };
FUNCTIONS(b)

typedef struct model_t { double when; } model_t;
static const fw_field fields_t[] = { F(FW_FIELD_DATE, when) };
static const member members_t[] = { M(K_NUMBER, model_t, when) };
FUNCTIONS(t)

typedef struct model_dd { double x; double y; } model_dd;
static const fw_field fields_dd[] = { F(FW_FIELD_NUMBER, x), F(FW_FIELD_NUMBER, y) };
static const member members_dd[] = { M(K_NUMBER, model_dd, x), M(K_NUMBER, model_dd, y) };
FUNCTIONS(dd)

typedef struct model_bd { bool flag; double x; } model_bd;
static const fw_field fields_bd[] = { F(FW_FIELD_BOOL, flag), F(FW_FIELD_NUMBER, x) };
static const member members_bd[] = { M(K_BOOL, model_bd, flag), M(K_NUMBER, model_bd, x) };
FUNCTIONS(bd)

typedef struct model_di { double x; int64_t n; } model_di;
static const fw_field fields_di[] = { F(FW_FIELD_NUMBER, x), F(FW_FIELD_INTEGER, n) };
static const member members_di[] = { M(K_NUMBER, model_di, x), M(K_INTEGER, model_di, n) };
FUNCTIONS(di)

typedef struct model_ib { int64_t n; bool flag; } model_ib;
static const fw_field fields_ib[] = { F(FW_FIELD_INTEGER, n), F(FW_FIELD_BOOL, flag) };
static const member members_ib[] = { M(K_INTEGER, model_ib, n), M(K_BOOL, model_ib, flag) };
FUNCTIONS(ib)

typedef struct model_ss { const char * a; const char * b; } model_ss;
static const fw_field fields_ss[] = { F(FW_FIELD_STRING, a), F(FW_FIELD_STRING, b) };
static const member members_ss[] = { M(K_STRING, model_ss, a), M(K_STRING, model_ss, b) };
FUNCTIONS(ss)

typedef struct model_list { fw_string_list items; } model_list;
static const fw_field fields_list[] = { F(FW_FIELD_STRING_LIST, items) };
static const member members_list[] = { M(K_LIST, model_list, items) };
FUNCTIONS(list)

typedef struct model_bbb { bool a; bool b; bool c; } model_bbb;
static const fw_field fields_bbb[] = { F(FW_FIELD_BOOL, a), F(FW_FIELD_BOOL, b), F(FW_FIELD_BOOL, c) };
static const member members_bbb[] = { M(K_BOOL, model_bbb, a), M(K_BOOL, model_bbb, b), M(K_BOOL, model_bbb, c) };
FUNCTIONS(bbb)

typedef struct model_mixed { const char * title; bool flag; int64_t n; double x; double when; fw_string_list items; } model_mixed;
static const fw_field fields_mixed[] = { F(FW_FIELD_STRING, title), F(FW_FIELD_BOOL, flag), F(FW_FIELD_INTEGER, n), F(FW_FIELD_NUMBER, x), F(FW_FIELD_DATE, when), F(FW_FIELD_STRING_LIST, items) };
static const member members_mixed[] = { M(K_STRING, model_mixed, title), M(K_BOOL, model_mixed, flag), M(K_INTEGER, model_mixed, n), M(K_NUMBER, model_mixed, x), M(K_NUMBER, model_mixed, when), M(K_LIST, model_mixed, items) };
FUNCTIONS(mixed)

/* 17 bools: 17 bytes, not whole words, on the stack. */
#define BOOLS17(X) X(b0) X(b1) X(b2) X(b3) X(b4) X(b5) X(b6) X(b7) X(b8) X(b9) X(b10) X(b11) X(b12) X(b13) X(b14) X(b15) X(b16)
#define BOOL_MEMBER(n) bool n;
#define BOOL_FIELD(n) F(FW_FIELD_BOOL, n),
#define BOOL_READ(n) M(K_BOOL, model_bools17, n),
typedef struct model_bools17 { BOOLS17(BOOL_MEMBER) } model_bools17;
static const fw_field fields_bools17[] = { BOOLS17(BOOL_FIELD) };
static const member members_bools17[] = { BOOLS17(BOOL_READ) };
FUNCTIONS(bools17)

/* 70 integers: 560 bytes, more words than the host calls directly (libffi). */
#define TEN(X, p) X(p##0) X(p##1) X(p##2) X(p##3) X(p##4) X(p##5) X(p##6) X(p##7) X(p##8) X(p##9)
#define BIG(X) X(n0) X(n1) X(n2) X(n3) X(n4) X(n5) X(n6) X(n7) X(n8) X(n9) TEN(X, n1) TEN(X, n2) TEN(X, n3) TEN(X, n4) TEN(X, n5) TEN(X, n6)
#define INT_MEMBER(n) int64_t n;
#define INT_FIELD(n) F(FW_FIELD_INTEGER, n),
#define INT_READ(n) M(K_INTEGER, model_big, n),
typedef struct model_big { BIG(INT_MEMBER) } model_big;
static const fw_field fields_big[] = { BIG(INT_FIELD) };
static const member members_big[] = { BIG(INT_READ) };
FUNCTIONS(big)

static const fw_cell_type cells[] = {
    CELL(d), CELL(i), CELL(b), CELL(t), CELL(dd), CELL(bd), CELL(di), CELL(ib), CELL(ss), CELL(list), CELL(bbb), CELL(mixed),
    CELL(bools17), CELL(big),
};

static const fw_pack pack = {
    .abi = FW_ABI_VERSION_INIT,
    .struct_size = sizeof(fw_pack),
    .id = "org.test.by-value",
    .name = "By-value models",
    .version = "1.0.0",
    .cell_types = cells,
    .cell_type_count = COUNT(cells),
};

FW_EXPORT const fw_pack *formwork_pack_v1(void) { return &pack; }
