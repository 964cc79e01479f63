// Per-file parameter values, stored in the file itself as one pragma comment line:
//
//     # tilescope: M=4096 N=4096 dtype="float16"
//
// The IDE's parameter panel writes it; opening the file restores the values, and `tilec` applies
// them too (its `--param k=v` overrides them), so a file runs with the same parameters in both.
// Being a comment it changes nothing for TileLang, travels with the file (copy, git, mail) and
// edits undo like any other text. Values are Python literals as CompileOptions::params expects
// them (no spaces unless quoted). compile() points errors about a pragma parameter (an unknown
// name) at the name in the pragma line. Plain C++ (no Qt): shared by the compiler, tilec and
// the IDE.
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/support/Source.h"

namespace ts {

/// Pragma words that are settings rather than factory parameter values (no Python name starts
/// with '@'): `@kernel=NAME` picks the kernel of a file with several (CompileOptions::kernel,
/// `tilec --kernel`), `@ref=NAME` the reference function (`tilec --ref`, dotted for one nested in
/// another function: `run_gemm.ref_program`). The IDE's kernel selector writes `@kernel`.
inline constexpr std::string_view kPragmaKernel = "@kernel";
inline constexpr std::string_view kPragmaRef = "@ref";
/// True for the name of a pragma setting (`@kernel`, `@ref`).
inline bool isPragmaSetting(std::string_view name) { return !name.empty() && name.front() == '@'; }
/// `values` (parseParamPragma) without the settings: the factory parameter values only.
std::map<std::string, std::string> pragmaParamValues(std::map<std::string, std::string> values);
/// The value of setting `key` (kPragmaKernel, kPragmaRef) in `values`, or "".
std::string pragmaSetting(const std::map<std::string, std::string>& values, std::string_view key);

/// The pragma's values ("M" -> "4096", settings such as "@kernel" included); empty when the file
/// has no pragma line. The first line that starts with `# tilescope:` wins; malformed words (no
/// '=') are ignored.
std::map<std::string, std::string> parseParamPragma(std::string_view text);

/// One `name=value` word of the pragma with where its name is in the text.
struct PragmaParam {
    std::string name, value;
    Span span;  ///< the name: line of the pragma, 1-based byte columns [col, endCol)
};

/// The pragma's words in order, with positions (repeated names kept; the last one wins in
/// parseParamPragma). Empty when the file has no pragma line.
std::vector<PragmaParam> paramPragmaEntries(std::string_view text);

/// 1-based number of the pragma line, 0 if there is none.
int paramPragmaLine(std::string_view text);

/// Formats the pragma line (without newline) for `values` in name order; empty if `values` is.
std::string formatParamPragma(const std::map<std::string, std::string>& values);

/// `text` with its pragma replaced by one for `values`: the existing line is rewritten in place,
/// a missing one is inserted after the leading comment/blank block (before the first statement),
/// and an empty `values` removes the line.
std::string withParamPragma(std::string_view text,
                            const std::map<std::string, std::string>& values);

}  // namespace ts
