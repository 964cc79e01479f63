// Shared pieces of the tilec subcommands: reading a tile program, parsing --param and
// --target, printing diagnostics like a compiler (file:line:col, caret, hint) to stderr.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compiler/Compile.h"
#include "compiler/support/HostTensor.h"
#include "profiler/check/ReferenceCall.h"

namespace ts::cli {

/// Options every subcommand that compiles accepts.
struct CompileFlags {
    std::string file;
    std::vector<std::string> params;  ///< "k=v"
    std::string target;               ///< empty: the GPU's arch if present, else cuda:sm_80
    /// The kernel of a file with several (CompileOptions::kernel); empty: the pragma's
    /// `@kernel=`, else the file's default kernel. "all" is handled by `tilec compile` alone.
    std::string kernel;
    bool pragmaNote = true;  ///< print the note listing the pragma's values (once per command)
    /// run/bench: --ref-param NAME=VALUE (values for the reference's own parameters)
    std::vector<std::string> refParams;
    /// run/bench: --input NAME=RULE (how an input tensor is filled; rt::parseInputRule)
    std::vector<std::string> inputRules;
    /// run/bench: --ref-inputs NAME,... (ReferenceExtras::inputs)
    std::vector<std::string> refInputs;
    /// run/bench: --inout NAME,... (outputs an in-place kernel also reads: ReferenceExtras::inout)
    std::vector<std::string> inout;
};

/// Reads a tile program through ts::readSourceFile (regular files up to 256 MiB only); nullopt,
/// with "PATH: error: ..." on stderr, if it can't be read.
std::optional<std::string> readFile(const std::string& path);
/// Parses "k=v" pairs; prints an error and returns nullopt on a malformed one.
std::optional<std::map<std::string, std::string>> parseParams(const std::vector<std::string>& kv);
/// Compiles per the flags (fills opts.params/target); prints diagnostics. nullopt on read errors.
/// opts.params = the file's `# tilescope:` pragma values (ParamPragma.h), then flags.params on
/// top; a note on stderr lists the pragma's values.
std::optional<CompileResult> compileFile(const CompileFlags& flags, CompileOptions opts);
/// Prints all diagnostics of a result to stderr (notes only when not quiet(), noteShown());
/// returns true if there was an error.
bool printDiagnostics(const CompileResult& r);
/// `-q/--quiet` of the compiling subcommands: notes (why a copy did not take TMA, which path a
/// T.gemm took, the parameters a call site or the pragma gave) are not printed; warnings and
/// errors are. Set once by main() after parsing the command line.
void setQuiet(bool quiet);
bool quiet();
/// Where `tilec run` says what it did (the target it defaulted to, the kernel and seed, where it
/// ran and how long it took): std::cout, or a sink under quiet(), which leaves warnings, errors
/// and the check (each output's line, PASS / FAIL / NOT CHECKED).
std::ostream& info();
/// Whether a diagnostic is printed: always, except a note under quiet() that is not about
/// errors (kept: the error cap's "N more error(s) not shown", origin "errors", and the parser's
/// "too many syntax errors", origin "parse").
bool noteShown(const Diagnostic& d);
/// The target to use when the user gave none: the attached GPU's, else cuda:sm_80.
std::string defaultTarget();
/// defaultTarget() and why it was chosen: "the attached GPU, NAME" or "no GPU found: WHY".
struct DefaultTargetChoice {
    std::string target;
    std::string why;
    bool fromGpu = false;
};
DefaultTargetChoice defaultTargetChoice();
/// The default target of the last compileFile() without --target (empty `target` when --target
/// was given): `tilec run` says which target it used and why, and a compile error under a
/// defaulted target without a GPU names --target (new-user trial: a Hopper-sized kernel was
/// rejected for sm_80 with "use smaller tiles", the default never mentioned).
const DefaultTargetChoice& lastDefaultedTarget();
/// The note for a target chosen by default: "target cuda:sm_80 (tilec's default: no GPU found:
/// ...); --target cuda:sm_90a (Hopper) or hip:gfx90a picks another".
std::string defaultTargetNote(const DefaultTargetChoice& c);
/// The reference function's name for a compiled program: `flag` (`--ref NAME`), else the
/// pragma's `@ref=`, else "" (the implicit ref_program).
std::string referenceName(const CompileResult& r, const std::string& flag);
/// True when `r` has a reference to check against: the function `refName` (referenceName())
/// names, or, when it is empty, the file's `ref_program` — used only for the file's default
/// kernel, as another kernel of a multi-kernel file takes other inputs (name its reference with
/// --ref). A named function that does not exist also counts (referenceOutputs reports it).
bool hasReference(const CompileResult& r, const std::string& refName);
/// Outputs of the reference (see hasReference) for `tensors` (all kernel arguments in order;
/// outputs are ignored), evaluated in float64. nullopt with empty `why` when there is none;
/// nullopt with a message when evaluation failed or the named function does not exist (the
/// message lists the file's functions with a close-match hint).
/// What a check passes to the reference besides the input tensors.
struct ReferenceExtras {
    std::vector<double> scalars;  ///< values of KernelInfo::scalars for this run (same order)
    /// --ref-param NAME=VALUE: the reference's own parameters (rt::ReferenceOptions::namedValues)
    std::map<std::string, std::string> namedValues;
    /// --ref-inputs NAME,...: the kernel inputs (tensors or scalars) the reference takes
    /// positionally, in this order; empty: all of them in the kernel's order.
    std::vector<std::string> inputs;
    /// --inout NAME,...: outputs that start with random values like an input (an in-place
    /// kernel: the elements it does not write keep them) and that the reference also takes as
    /// inputs, in the kernel's order.
    std::vector<std::string> inout;
};
/// The kernel's by-value scalar arguments (`n: T.int32`) for rt::ReferenceOptions::scalars: a
/// reference parameter of the same name takes the value.
std::vector<rt::ReferenceScalar> referenceScalars(const KernelInfo& k,
                                                  const std::vector<double>& values);
/// Where a reference function lives: `refName` (`--ref`: NAME, a dotted path of nested defs, or
/// FILE::NAME for a function of another file; empty: ref_program) resolved to its parsed file.
struct ReferenceTarget {
    SourcePtr source;                           ///< the file holding the function
    std::shared_ptr<const fe::ast::Module> ast;  ///< that file, parsed
    std::string name;                           ///< the function's name (path) in it
};
/// nullopt with `why` when the other file cannot be read or parsed or has no such function (the
/// message lists its functions with a close match); nullopt with empty `why` without a module.
/// Cheap (a parse at most): tilec run calls it before running the kernel.
std::optional<ReferenceTarget> referenceTarget(const CompileResult& r, const std::string& refName,
                                               std::string& why);
/// Warnings of the evaluation (a reference parameter left at a default) go to stderr.
std::optional<std::vector<HostTensor>> referenceOutputs(const CompileResult& r,
                                                        const std::vector<HostTensor>& tensors,
                                                        std::string& why,
                                                        const std::string& refName = {},
                                                        const ReferenceExtras& extras = {});

/// Writes `j` (indented) to `path`, or stdout for "-". Strings that are not valid UTF-8 (a file
/// name) are written with U+FFFD instead of throwing. Prints "tilec: error: cannot write ..." and
/// returns false when the file cannot be written.
bool writeJson(const nlohmann::json& j, const std::string& path);

/// Runs a subcommand; an exception escaping it (a bug: subcommands report expected problems
/// themselves) becomes "tilec: internal error: WHAT (please report)" on stderr and exit code 2
/// instead of std::terminate (exit 134).
int runGuarded(const std::function<int()>& subcommand);

}  // namespace ts::cli
