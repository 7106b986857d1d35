// A train-ticket cell written in C++17 against formwork.h 1.1 alone.
//
// It shows the C++ patterns docs/abi.md describes: descriptors filled in a
// function called once (C++17 has no designated initialisers), default values
// through fw::value_*, typed flag constants (fw::flags), and the 1.1 features:
// declared field roles, a choice-list field, the number and multi-choice
// controls, and the pack-context extension. The entry is declared by the
// header inside extern "C", so this definition gets C linkage.
#include "formwork.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

const fw_host *the_host = nullptr;
std::string resources = "(unknown)";

struct Ticket {
    std::string passenger;
    int64_t travellers = 1;
    bool has_travellers = false;
    std::vector<std::string> extras;
    bool first_class = false;
};

std::array<fw_choice, 3> extras_choices;
std::array<fw_field, 4> fields;
fw_text_traits traits;
fw_cell_type cell_type;
fw_pack pack;
const char *const default_extras[] = {"seat"};

fw_status pack_init(const fw_host *host) {
    the_host = host;
    const void *extension = host->get_extension ? host->get_extension(host, FW_EXTENSION_PACK_CONTEXT) : nullptr;
    if (const auto *context = static_cast<const fw_pack_context *>(extension)) resources = context->resource_dir;
    return FW_OK;
}

void *create(const fw_cell_type *, const fw_host *) { return new (std::nothrow) Ticket(); }
void destroy(void *cell) { delete static_cast<Ticket *>(cell); }

fw_status configure(void *cell, const fw_value *values, uint32_t count) {
    if (count != fields.size()) return FW_INVALID_ARGUMENT;
    auto *ticket = static_cast<Ticket *>(cell);
    ticket->passenger = values[0].type == FW_FIELD_STRING && values[0].as.string ? values[0].as.string : "";
    ticket->has_travellers = values[1].type == FW_FIELD_INTEGER;
    ticket->travellers = ticket->has_travellers ? values[1].as.integer : 1;
    ticket->extras.clear();
    if (values[2].type == FW_FIELD_CHOICE_LIST) {
        for (size_t i = 0; i < values[2].as.list.count; i++) ticket->extras.emplace_back(values[2].as.list.items[i]);
    }
    ticket->first_class = values[3].type == FW_FIELD_BOOL && values[3].as.boolean;
    return FW_OK;
}

fw_status render(void *cell, const fw_canvas *canvas, void *ctx) {
    const auto *ticket = static_cast<const Ticket *>(cell);
    canvas->label(ctx, ticket->passenger.empty() ? "Ticket" : ticket->passenger.c_str(), FW_LABEL_TITLE);
    const uint32_t flags = ticket->passenger.empty() ? fw::flags::control_required : 0u;
    if (canvas->struct_size >= offsetof(fw_canvas, multi_choice) + sizeof(void *)) {
        canvas->number(ctx, "travellers", "Travellers", ticket->has_travellers, static_cast<double>(ticket->travellers),
                       1, 9, 1, FW_NUMBER_STEPPER, flags);
        std::vector<const char *> selected;
        for (const auto &extra : ticket->extras) selected.push_back(extra.c_str());
        fw_string_list list = {selected.data(), selected.size()};
        canvas->multi_choice(ctx, "extras", "Extras", extras_choices.data(), static_cast<uint32_t>(extras_choices.size()),
                             &list, FW_MULTI_CHOICE_CHECKBOXES, 0u);
    } else {
        canvas->value(ctx, "Travellers", std::to_string(ticket->travellers).c_str());
    }
    canvas->toggle(ctx, "firstClass", "First class", ticket->first_class, 0u);
    return FW_OK;
}

fw_status value_changed(void *, const char *field, const fw_value *value, const char **message) {
    if (std::strcmp(field, "travellers") == 0 && value->type == FW_FIELD_INTEGER && value->as.integer > 6) {
        *message = "groups of more than six travellers book by phone";
        return FW_REJECTED;
    }
    return FW_OK;
}

fw_field field(const char *name, fw_field_type type, const char *label) {
    fw_field f = fw_field();
    f.struct_size = sizeof(fw_field);
    f.type = type;
    f.name = name;
    f.label = label;
    return f;
}

void build() {
    const char *values[] = {"seat", "bike", "meal"};
    const char *labels[] = {"Reserved seat", "Bicycle", "Meal"};
    for (size_t i = 0; i < extras_choices.size(); i++) {
        extras_choices[i] = fw_choice();
        extras_choices[i].struct_size = sizeof(fw_choice);
        extras_choices[i].value = values[i];
        extras_choices[i].label = labels[i];
    }
    fields[0] = field("passenger", FW_FIELD_STRING, "Passenger");
    fields[0].flags = fw::flags::field_required;
    fields[0].max_length = 100;
    fields[1] = field("travellers", FW_FIELD_INTEGER, "Travellers");
    fields[1].flags = fw::flags::field_has_minimum | fw::flags::field_has_maximum;
    fields[1].minimum = 1;
    fields[1].maximum = 9;
    fields[1].default_value = fw::value_integer(1);
    fields[2] = field("extras", FW_FIELD_CHOICE_LIST, "Extras");
    fields[2].choices = extras_choices.data();
    fields[2].choice_count = static_cast<uint32_t>(extras_choices.size());
    fields[2].default_value = fw::value_list(default_extras, 1, FW_FIELD_CHOICE_LIST);
    fields[3] = field("firstClass", FW_FIELD_BOOL, "First class");
    fields[3].default_value = fw::value_bool(false);

    traits = fw_text_traits();
    traits.struct_size = sizeof(fw_text_traits);
    traits.autocapitalization = FW_AUTOCAPITALIZATION_WORDS;
    traits.content_type = "name";

    cell_type = fw_cell_type();
    cell_type.struct_size = sizeof(fw_cell_type);
    cell_type.id = "com.example.cpp.ticket";
    cell_type.name = "Train ticket";
    cell_type.summary = "Passenger, travellers, extras: a C++17 pack using ABI 1.1.";
    cell_type.fields = fields.data();
    cell_type.field_count = static_cast<uint32_t>(fields.size());
    cell_type.text_input_kind = FW_TEXT_INPUT_TEXT_FIELD;
    cell_type.text_input_field = "passenger";
    cell_type.text_traits = &traits;
    cell_type.create = create;
    cell_type.destroy = destroy;
    cell_type.configure = configure;
    cell_type.render = render;
    cell_type.value_changed = value_changed;
    cell_type.value_field = "travellers";   // what a values file sets for this cell
    cell_type.title_field = "passenger";
    cell_type.required_field = "";          // no "required" field
    cell_type.max_length_field = "";
    cell_type.placeholder_field = "";

    pack = fw_pack();
    pack.abi = FW_ABI_VERSION_INIT;
    pack.struct_size = sizeof(fw_pack);
    pack.id = "com.example.cpp";
    pack.name = "C++ example";
    pack.version = "1.0.0";
    pack.license = "MIT";
    pack.init = pack_init;
    pack.cell_types = &cell_type;
    pack.cell_type_count = 1;
}

} // namespace

// Declared in formwork.h inside extern "C": C linkage, exported by FW_EXPORT there.
const fw_pack *formwork_pack_v1(void) {
    static const bool built = (build(), true);
    (void)built;
    return &pack;
}
