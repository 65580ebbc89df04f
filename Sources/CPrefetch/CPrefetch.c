// The prefetch hint is header-only (CPrefetch.h); SwiftPM needs one source file in a C target.
#include "CPrefetch.h"
