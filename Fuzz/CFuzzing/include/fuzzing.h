#ifndef FORMWORK_FUZZING_H
#define FORMWORK_FUZZING_H
/*
 * libFuzzer's driver, for DocumentFuzzer's own main (Fuzz/DocumentFuzzer/main.swift).
 * Only the sanitizer build (scripts/sanitizer-build, trait Fuzzing) calls it and links
 * libclang_rt.fuzzer_no_main; a normal build never references it.
 */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
