// Comma-separated option values (--chain K1,K2, --ref-inputs A,B, --block 1,2): CLI11 splits them
// at parse time and silently drops empty pieces, so `--chain mha_fwd,` ran one kernel and
// `--ref-inputs ,A` one name. This looks at the words before CLI11 does.
#pragma once
#include <string>

#include <CLI/CLI.hpp>

namespace ts::cli {

/// The first value of a comma-delimited option of the subcommand in argv with an empty piece
/// (leading, trailing or doubled comma; blanks count as empty), as an error line for stderr;
/// empty when there is none. Options are found by their names on `app`'s subcommands.
std::string emptyCommaListPiece(const CLI::App& app, int argc, const char* const* argv);

/// Whether the comma-separated `value` has an empty item (leading, trailing or doubled comma,
/// or an item of blanks): options tilec splits itself (debug --block) use it too.
bool hasEmptyCommaItem(const std::string& value);

}  // namespace ts::cli
