/* A tiny library that mentions every ABI type, so that `abidw` records their
 * layouts. Built by scripts/abi-check; never shipped. */
#include "formwork.h"

FW_EXPORT void fw_abi_version(fw_version *v) { (void)v; }
FW_EXPORT void fw_abi_value(fw_value *v, fw_string_list *l) { (void)v; (void)l; }
FW_EXPORT void fw_abi_field(fw_field *f, fw_choice *c) { (void)f; (void)c; }
FW_EXPORT void fw_abi_traits(fw_text_traits *t) { (void)t; }
FW_EXPORT void fw_abi_host(fw_host *h) { (void)h; }
FW_EXPORT void fw_abi_canvas(fw_canvas *c) { (void)c; }
FW_EXPORT void fw_abi_cell_type(fw_cell_type *c) { (void)c; }
FW_EXPORT void fw_abi_pack(fw_pack *p, fw_pack_entry_fn entry) { (void)p; (void)entry; }
FW_EXPORT bool fw_abi_compatible(fw_version host, fw_version pack) { return fw_version_is_compatible(host, pack); }
FW_EXPORT void fw_abi_pack_context(fw_pack_context *c) { (void)c; }
FW_EXPORT void fw_abi_choices(fw_choices_ext *c) { (void)c; }
