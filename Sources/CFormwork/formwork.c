/* Compiles the header once so its layout pins (_Static_assert) are checked on every build. */
#include "formwork.h"
