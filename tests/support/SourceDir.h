// Where the tests find repository files (samples/, tests/errors/, tests/e2e/programs/, ...).
// The absolute path is compiled into SourceDir.cpp alone: as a definition on every test file it
// made each clone or worktree recompile the whole suite, since ccache keys on the command line.
#pragma once

namespace ts_test {
/// The repository root, absolute, without a trailing slash.
const char* sourceDir();
}  // namespace ts_test

#define TS_SOURCE_DIR (::ts_test::sourceDir())
