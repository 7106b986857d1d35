/*
 * RatingCells is plain C, yet SwiftPM links every library it builds on Linux with
 * the Swift toolchain's swiftrt.o. That object's constructor hands the image's Swift
 * metadata sections to the Swift runtime (swift_addNewDSOImage) and keeps a reference
 * to the runtime's backtracer (_swift_backtrace_isThunkFunction), so the pack would
 * load a Swift runtime — libswiftCore.so, or a private copy with -static-stdlib — in
 * every process that opens it, about a millisecond of loading and initialising, for
 * an image whose Swift sections are empty.
 *
 * These two hidden definitions satisfy swiftrt.o inside the pack: the release build
 * links with -static-stdlib (Package.swift), so the linker takes them instead of any
 * archive member and the pack needs no Swift runtime at all, as a third-party C pack
 * built with `cc` against formwork.h does not. A debug build (shared runtime) still
 * lists libswiftCore.so, and its constructor calls these as well: nothing to register.
 */
#pragma GCC visibility push(hidden)

struct swift_metadata_sections;

/* The image has no Swift types, conformances or metadata: there is nothing to register. */
void swift_addNewDSOImage(struct swift_metadata_sections *sections);
void swift_addNewDSOImage(struct swift_metadata_sections *sections) { (void)sections; }

/* Only referenced (swiftrt.o keeps its address so the backtracer is linked in); never called here. */
int _swift_backtrace_isThunkFunction(const char *name);
int _swift_backtrace_isThunkFunction(const char *name) {
    (void)name;
    return 0;
}

#pragma GCC visibility pop
