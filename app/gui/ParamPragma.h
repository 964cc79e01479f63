// Per-file parameter values, stored in the file itself as one pragma comment line:
//
//     # tilescope: M=4096 N=4096 dtype="float16"
//
// The IDE's parameter panel writes it; opening the file restores the values. Being a comment, it
// changes nothing for TileLang or for `tilec` (which takes `--param k=v` instead), travels with the
// file (copy, git, mail) and edits undo like any other text. Values are Python literals as
// CompileOptions::params expects them (no spaces unless quoted). Plain C++ (no Qt) so it is easy
// to test.
#pragma once
#include <map>
#include <string>
#include <string_view>

namespace ts::gui {

/// The pragma's values ("M" -> "4096"); empty when the file has no pragma line. The first line
/// that starts with `# tilescope:` wins; malformed words (no '=') are ignored.
std::map<std::string, std::string> parseParamPragma(std::string_view text);

/// 1-based number of the pragma line, 0 if there is none.
int paramPragmaLine(std::string_view text);

/// Formats the pragma line (without newline) for `values` in name order; empty if `values` is.
std::string formatParamPragma(const std::map<std::string, std::string>& values);

/// `text` with its pragma replaced by one for `values`: the existing line is rewritten in place,
/// a missing one is inserted after the leading comment/blank block (before the first statement),
/// and an empty `values` removes the line.
std::string withParamPragma(std::string_view text,
                            const std::map<std::string, std::string>& values);

}  // namespace ts::gui
