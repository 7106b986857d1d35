/* Declarations only (include/fuzzing.h); a C target needs one source file. */
#include "fuzzing.h"
