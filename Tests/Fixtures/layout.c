/* Prints the size and alignment of every ABI struct and the offset and size of
 * every member, one per line, so that gcc, clang and Swift can be compared. */
#include "formwork.h"
#include <stdio.h>

#define STRUCT(T) printf("%s %zu %zu\n", #T, sizeof(T), _Alignof(T));
#define MEMBER(T, m) printf("%s.%s %zu %zu\n", #T, #m, offsetof(T, m), sizeof(((T *)0)->m));

int main(void) {
    STRUCT(fw_version) MEMBER(fw_version, major) MEMBER(fw_version, minor) MEMBER(fw_version, patch)
    STRUCT(fw_string_list) MEMBER(fw_string_list, items) MEMBER(fw_string_list, count)
    STRUCT(fw_value) MEMBER(fw_value, type) MEMBER(fw_value, reserved) MEMBER(fw_value, as)
    STRUCT(fw_choice) MEMBER(fw_choice, struct_size) MEMBER(fw_choice, reserved) MEMBER(fw_choice, value) MEMBER(fw_choice, label)
    STRUCT(fw_field) MEMBER(fw_field, struct_size) MEMBER(fw_field, type) MEMBER(fw_field, name) MEMBER(fw_field, label)
    MEMBER(fw_field, doc) MEMBER(fw_field, flags) MEMBER(fw_field, choice_count) MEMBER(fw_field, choices)
    MEMBER(fw_field, default_value) MEMBER(fw_field, minimum) MEMBER(fw_field, maximum) MEMBER(fw_field, min_length)
    MEMBER(fw_field, max_length) MEMBER(fw_field, options_field)
    STRUCT(fw_text_traits) MEMBER(fw_text_traits, struct_size) MEMBER(fw_text_traits, autocapitalization)
    MEMBER(fw_text_traits, autocorrection) MEMBER(fw_text_traits, spell_checking) MEMBER(fw_text_traits, smart_dashes)
    MEMBER(fw_text_traits, smart_quotes) MEMBER(fw_text_traits, smart_insert_delete) MEMBER(fw_text_traits, keyboard)
    MEMBER(fw_text_traits, keyboard_appearance) MEMBER(fw_text_traits, return_key) MEMBER(fw_text_traits, clear_button)
    MEMBER(fw_text_traits, secure_entry) MEMBER(fw_text_traits, content_type) MEMBER(fw_text_traits, data_detectors)
    MEMBER(fw_text_traits, selectable) MEMBER(fw_text_traits, date_mode) MEMBER(fw_text_traits, reserved)
    MEMBER(fw_text_traits, minimum_field) MEMBER(fw_text_traits, maximum_field)
    STRUCT(fw_host) MEMBER(fw_host, abi) MEMBER(fw_host, struct_size) MEMBER(fw_host, name) MEMBER(fw_host, version)
    MEMBER(fw_host, host_data) MEMBER(fw_host, log) MEMBER(fw_host, get_extension)
    STRUCT(fw_canvas) MEMBER(fw_canvas, struct_size) MEMBER(fw_canvas, reserved) MEMBER(fw_canvas, begin_group)
    MEMBER(fw_canvas, end_group) MEMBER(fw_canvas, label) MEMBER(fw_canvas, value) MEMBER(fw_canvas, text_input)
    MEMBER(fw_canvas, toggle) MEMBER(fw_canvas, button) MEMBER(fw_canvas, choice) MEMBER(fw_canvas, date) MEMBER(fw_canvas, message)
    MEMBER(fw_canvas, number) MEMBER(fw_canvas, multi_choice)
    STRUCT(fw_pack_context) MEMBER(fw_pack_context, struct_size) MEMBER(fw_pack_context, reserved)
    MEMBER(fw_pack_context, pack_path) MEMBER(fw_pack_context, resource_dir)
    STRUCT(fw_cell_type) MEMBER(fw_cell_type, struct_size) MEMBER(fw_cell_type, flags) MEMBER(fw_cell_type, id)
    MEMBER(fw_cell_type, name) MEMBER(fw_cell_type, summary) MEMBER(fw_cell_type, fields) MEMBER(fw_cell_type, field_count)
    MEMBER(fw_cell_type, text_input_kind) MEMBER(fw_cell_type, text_input_field) MEMBER(fw_cell_type, text_traits)
    MEMBER(fw_cell_type, create) MEMBER(fw_cell_type, destroy) MEMBER(fw_cell_type, configure) MEMBER(fw_cell_type, render)
    MEMBER(fw_cell_type, did_set_selected) MEMBER(fw_cell_type, did_set_highlighted) MEMBER(fw_cell_type, value_changed)
    MEMBER(fw_cell_type, typed_convention) MEMBER(fw_cell_type, model_alignment) MEMBER(fw_cell_type, model_size)
    MEMBER(fw_cell_type, typed_configure) MEMBER(fw_cell_type, value_field) MEMBER(fw_cell_type, title_field)
    MEMBER(fw_cell_type, required_field) MEMBER(fw_cell_type, max_length_field) MEMBER(fw_cell_type, placeholder_field)
    STRUCT(fw_pack) MEMBER(fw_pack, abi) MEMBER(fw_pack, struct_size) MEMBER(fw_pack, id) MEMBER(fw_pack, name)
    MEMBER(fw_pack, version) MEMBER(fw_pack, vendor) MEMBER(fw_pack, license) MEMBER(fw_pack, description)
    MEMBER(fw_pack, init) MEMBER(fw_pack, deinit) MEMBER(fw_pack, cell_types) MEMBER(fw_pack, cell_type_count)
    MEMBER(fw_pack, reserved)
    return 0;
}
