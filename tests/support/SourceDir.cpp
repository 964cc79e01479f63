#include "tests/support/SourceDir.h"

namespace ts_test {
const char* sourceDir() { return TS_SOURCE_DIR_PATH; }
}  // namespace ts_test
