// tilec: the TileScope compiler driver. Same pipeline as the IDE (compiler::compile), from the
// command line: compile (pass dumps, timings, NVRTC), run (check against the float64 reference
// on the GPU or the CPU interpreter), bench (timed launches, TFLOP/s), passes, kernels (the
// kernels of a multi-kernel file; --kernel NAME selects one everywhere).
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <string>

#include <unistd.h>

#include <CLI/CLI.hpp>

#include "app/cli/CmdTrace.h"
#include "app/cli/CommaLists.h"
#include "app/cli/Commands.h"
#include "app/cli/GpuWorker.h"
#include "app/cli/RunSupport.h"
#include "app/cli/Record.h"
#include "compiler/frontend/MetaValue.h"
#include "profiler/store/ResultsStore.h"

using namespace ts::cli;

namespace {

/// CLI11's PositiveNumber / NonNegativeNumber print their range up to DBL_MAX in 300 digits
/// ("--rtol: Value -1 not in range 0.000000 to 17976931348623157..."): the same checks, in words.
std::string numberCheck(const std::string& s, bool allowZero) {
    try {
        size_t used = 0;
        const double v = std::stod(s, &used);
        if (used == s.size() && (v > 0 || (allowZero && v == 0))) return {};
    } catch (...) {
    }
    return std::string("expected a number ") + (allowZero ? ">= 0" : "> 0") + ", got '" + s + "'";
}
const CLI::Validator kPositive([](std::string& s) { return numberCheck(s, false); }, "NUMBER > 0", "positive");
const CLI::Validator kNonNegative([](std::string& s) { return numberCheck(s, true); }, "NUMBER >= 0", "non-negative");
// Every --input NAME=RULE is parsed before the compile: a malformed rule is a usage error (exit 2,
// with the accepted forms), not a failure after compiling (exit 1, the parse error alone).
const CLI::Validator kInputRule([](std::string& s) { return ts::cli::inputRuleProblem(s); }, "", "input rule");
// A name in a comma-separated list (--ref-inputs A,B, --chain K1,K2): spaces around it are dropped;
// an empty one ("A,", ",") or one that is an option ("--interp" swallowed after a lone comma) is an error.
const CLI::Validator kName(
    [](std::string& s) {
        const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
        s = a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
        if (s.empty()) return std::string("an empty name (a stray comma?)");
        // `--chain -x` and `--chain=-x` reach here alike: say both readings.
        if (s[0] == '-')
            return "'" + s + "' is not a name (names do not start with '-'; if it is an option, the value before it is missing)";
        return std::string();
    },
    "NAME", "name");
/// --block x[,y[,z]]: at most three non-negative indices.
const CLI::Validator kBlockIndex(
    [](std::string& s) {
        if (s.empty()) return std::string("an empty block index");
        return numberCheck(s, true);
    },
    "INDEX", "block index");
/// --json FILE: checked before the work it records (helper-108: `timeline --json /nonexistent/x`
/// printed the whole timeline, then failed to write).
const CLI::Validator kJsonPath(
    [](std::string& s) {
        if (s == "-") return std::string();
        namespace fs = std::filesystem;
        std::error_code ec;
        if (s.empty()) return std::string("an empty path ('-' writes to stdout)");
        if (fs::is_directory(s, ec)) return "'" + s + "' is a directory, not a file";
        const fs::path dir = fs::path(s).has_parent_path() ? fs::path(s).parent_path() : fs::path(".");
        if (!fs::is_directory(dir, ec)) return "the folder '" + dir.string() + "' does not exist";
        if (::access(dir.c_str(), W_OK) != 0) return "the folder '" + dir.string() + "' is not writable";
        return std::string();
    },
    "FILE", "writable JSON path");
/// --seed: a non-negative integer below 2^64 (a longer one was silently 18446744073709551615).
const CLI::Validator kSeed(
    [](std::string& v) {
        if (!v.empty() && v[0] == '-') return "a seed is a non-negative integer, got '" + v + "'";
        // Not digits: CLI11's "expects a non-negative integer" (reportParseError).
        if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos) return std::string();
        const std::string max = "18446744073709551615";
        const std::string trimmed = v.substr(std::min(v.find_first_not_of('0'), v.size() - 1));
        if (trimmed.size() > max.size() || (trimmed.size() == max.size() && trimmed > max))
            return "a seed is a non-negative integer below 2^64, got '" + v + "'";
        return std::string();
    },
    "UINT", "seed");
/// An option whose empty value would silently mean its default (--target "", --kernel "").
const CLI::Validator kNotEmpty(
    [](std::string& s) { return s.find_first_not_of(" \t") == std::string::npos ? std::string("an empty value (leave the option out for its default)") : std::string(); },
    "", "not empty");
/// --param NAME=VALUE: blanks around the name and the '=' dropped ("M = 128" read as a parameter 'M ').
const CLI::Validator kParamText(
    [](std::string& s) {
        const size_t eq = s.find('=');
        if (eq == std::string::npos) return std::string();  // the compile reports NAME without =VALUE
        auto trim = [](std::string t) {
            const size_t a = t.find_first_not_of(" \t"), b = t.find_last_not_of(" \t");
            return a == std::string::npos ? std::string() : t.substr(a, b - a + 1);
        };
        s = trim(s.substr(0, eq)) + "=" + trim(s.substr(eq + 1));
        return std::string();
    },
    "NAME=VALUE", "parameter");
void addCompileFlags(CLI::App* app, CompileFlags& f) {
    // No CLI::ExistingFile check: readFile() reports a missing file in tilec's own error format.
    app->add_option("file", f.file, "tile program (.py, TileLang syntax)")->required();
    app->add_option("--param,-p", f.params,
                    "override a factory parameter: NAME=VALUE (repeatable)")
        ->transform(kParamText);
    app->add_option("--target", f.target,
                    "cuda:sm_80 | cuda:sm_90a | hip:gfx90a (default: the attached GPU, else cuda:sm_80)")
        ->check(kNotEmpty);
    app->add_option("--kernel,-k", f.kernel,
                    "the kernel of a file with several (see `tilec kernels FILE`; default: the "
                    "pragma's @kernel, else the file's first @tilelang.jit factory)")
        ->check(kNotEmpty);
}
/// Options of the commands that check a run against a reference (run, bench).
void addCheckFlags(CLI::App* app, CompileFlags& f) {
    app->add_option("--input", f.inputRules,
                    "fill input tensor NAME by RULE instead of random values: NAME=offsets:TOTAL "
                    "(0..TOTAL nondecreasing, e.g. cu_seqlens), NAME=int:LO:HI, NAME=uniform:LO:HI (floats), "
                    "NAME=distinct:N (rows of distinct indices < N), NAME=fill:V, NAME=arange, NAME=sparse:N:M, "
                    "NAME=values:V1,V2,...; NAME=@PATH reads the RULE from file PATH (repeatable)")
        ->check(kInputRule);
    app->add_option("--ref-param", f.refParams,
                    "NAME=VALUE for a parameter of the reference function the kernel does not "
                    "have (repeatable)");
    app->add_option("--ref-inputs", f.refInputs,
                    "the kernel inputs (tensors and scalar arguments, by name) the reference "
                    "takes positionally, in its order (default: every input in the kernel's "
                    "order)")
        ->delimiter(',')
        ->transform(kName);
    app->add_option("--inout", f.inout,
                    "outputs of an in-place kernel (NAME,...): each starts with random values "
                    "like an input (--input rules apply), keeps those the kernel does not write, "
                    "and is an input of the reference too")
        ->delimiter(',')
        ->transform(kName);
}
/// CLI11's ExtrasError says only "The following arguments were not expected: M=4 --parm" (in
/// reverse order): name the first unknown option as written, the nearest option of the command
/// it was given to (edit distance, frontend closestMatch), and that command's help. Exit 2, as
/// for an unknown command.
int reportExtras(const CLI::App& app, int argc, char** argv) {
    const auto parsed = app.get_subcommands();  // the subcommand given, if the parse got there
    const CLI::App& owner = parsed.empty() ? app : *parsed.front();
    const std::string command = parsed.empty() ? "tilec" : "tilec " + owner.get_name();
    const std::vector<std::string> extras = app.remaining(true);
    const std::set<std::string> unexpected(extras.begin(), extras.end());
    // The first unexpected word in command-line order; an option (-x, --name, --name=value)
    // before any other word.
    std::string word, option;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (!unexpected.count(a)) continue;
        if (word.empty()) word = a;
        if (a.size() > 1 && a[0] == '-' && !std::isdigit(static_cast<unsigned char>(a[1]))) {
            option = a.substr(0, a.find('='));
            break;
        }
    }
    if (option.empty()) {
        std::cerr << "tilec: error: unexpected argument '" << (word.empty() ? extras.front() : word)
                  << "' for '" << command << "'\n  hint: run '" << command << " --help' for its arguments\n";
        return 2;
    }
    std::vector<std::string> names;  // without their dashes: closestMatch compares names
    std::map<std::string, std::string> spelt;
    for (const CLI::Option* o : owner.get_options()) {
        for (const std::string& l : o->get_lnames()) names.push_back(l), spelt[l] = "--" + l;
        for (const std::string& sn : o->get_snames()) names.push_back(sn), spelt[sn] = "-" + sn;
    }
    const size_t dashes = std::min(option.find_first_not_of('-'), option.size());  // "--" alone: no name
    const std::string near = ts::fe::closestMatch(option.substr(dashes), names);
    std::cerr << "tilec: error: unknown option '" << option << "' for '" << command << "'"
              << (near.empty() ? "" : " (did you mean '" + spelt[near] + "'?)") << "\n  hint: run '"
              << command << " --help' for its options\n";
    return 2;
}

/// The command names for messages (`worker` is started by tilec and the IDE, not by hand).
std::string commandList(const CLI::App& app) {
    std::string names;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
        if (sub->get_name() != "worker") names += (names.empty() ? "" : ", ") + sub->get_name();
    return names;
}

/// Words for an option's CLI11 type name ("--seed expects a non-negative integer").
std::string typeWords(const std::string& type) {
    const std::string t = type.substr(0, type.find_first_of(" :"));
    if (t == "UINT") return "a non-negative integer";
    if (t == "INT") return "an integer";
    if (t == "FLOAT") return "a number";
    return {};  // TEXT: "a value" says it
}

/// CLI11's remaining parse errors printed its own text and exit codes 104-114 ("Could not
/// convert: --seed = abc", "file is required", "--param: 1 required TEXT missing", "A subcommand
/// is required"). In tilec's format instead: the option and what was wrong with its value, a hint
/// with how the option is written and the command's help; exit 2 (a usage error).
int reportParseError(const CLI::App& app, const CLI::ParseError& e) {
    const auto parsed = app.get_subcommands();
    if (parsed.empty() && e.get_name() == "RequiredError" &&
        std::string(e.what()) == "A subcommand is required") {
        std::cerr << "tilec: error: no command given (commands: " << commandList(app) << ")\n"
                  << "  hint: tilec COMMAND FILE [OPTIONS], e.g. 'tilec run samples/gemm.py --interp'; "
                     "'tilec --help' describes the commands\n";
        return 2;
    }
    const CLI::App& owner = parsed.empty() ? app : *parsed.front();
    const std::string command = parsed.empty() ? "tilec" : "tilec " + owner.get_name();
    const std::string what = e.what();
    // The option CLI11's message is about: its name (get_name(): "--seed", or "file" for a
    // positional) starts the message or follows "Could not convert: "; the longest name wins
    // (--ref-param, not --ref).
    const CLI::Option* opt = nullptr;
    std::string name;
    for (const CLI::App* a : {&owner, &app})
        for (const CLI::Option* o : a->get_options()) {
            const std::string n = o->get_name();
            if (n.empty() || n.size() <= name.size()) continue;
            for (const std::string& lead : {std::string(), std::string("Could not convert: ")})
                if (what.rfind(lead + n, 0) == 0 && what.size() > lead.size() + n.size() &&
                    std::string(": =").find(what[lead.size() + n.size()]) != std::string::npos)
                    opt = o, name = n;
        }
    const std::string help = "run '" + command + " --help' for its options";
    if (!opt) {
        std::cerr << "tilec: error: " << what << "\n  hint: " << help << "\n";
        return 2;
    }
    const bool positional = opt->get_lnames().empty() && opt->get_snames().empty();
    const std::string shown = positional ? "FILE" : name;  // tilec's only positionals are files
    // How the option is written: name, value type, description (cut: --input's runs to 400 chars).
    std::string desc = opt->get_description();
    if (desc.size() > 110) desc = desc.substr(0, desc.rfind(' ', 107)) + " ...";
    const std::string type = opt->get_type_name().substr(0, opt->get_type_name().find(':'));
    const std::string usage = positional ? "'" + command + " FILE', FILE being the " + desc
                                         : name + (type.empty() ? "" : " " + type) + ": " + desc;
    std::string message;
    if (name == "--input" && e.get_name() == "ValidationError") {
        // inputRuleProblem's text names the tensor ("A: input rule 'uniform:1': ..."); the hint
        // lists the forms (the option's description is cut above).
        std::cerr << "tilec: error: --input " << what.substr(std::min(what.size(), name.size() + 2))
                  << "\n  hint: " << ts::cli::inputRuleHint() << "; " << help << "\n";
        return 2;
    }
    if (e.get_name() == "RequiredError") {
        message = "'" + command + "' needs " + (positional ? "a FILE" : shown);
    } else if (e.get_name() == "ArgumentMismatch" && what.find("At Most") != std::string::npos) {
        // CLI11's "--ref: At Most 1 required but received 2": the option was given twice.
        message = shown + " is given more than once; it takes one value (the last -p/--param of a name wins, but this option does not repeat)";
    } else if (e.get_name() == "ArgumentMismatch") {
        message = shown + " needs a value" + (typeWords(type).empty() ? "" : " (" + typeWords(type) + ")");
    } else if (e.get_name() == "ConversionError" && what.rfind("Could not convert: ", 0) == 0) {
        const size_t eq = what.find(" = ");
        message = shown + " expects " + (typeWords(type).empty() ? "a value" : typeWords(type)) + ", got '" +
                  (eq == std::string::npos ? std::string() : what.substr(eq + 3)) + "'";
    } else {
        // ValidationError "NAME: REASON"; CLI::IsMember's reason is "banana not in {tile,lowered}".
        std::string reason = what.substr(std::min(what.size(), name.size() + 2));
        const size_t in = reason.find(" not in {");
        if (in != std::string::npos && reason.back() == '}') {
            std::string choices = reason.substr(in + 9, reason.size() - in - 10);
            for (size_t c = choices.find(','); c != std::string::npos; c = choices.find(',', c + 2))
                choices.replace(c, 1, ", ");
            reason = "'" + reason.substr(0, in) + "' is not one of " + choices;
        }
        message = shown + ": " + reason;
    }
    std::cerr << "tilec: error: " << message << "\n  hint: " << usage << "; " << help << "\n";
    return 2;
}
/// Help text as the user types the options: a flag with an optional value is declared
/// "--interp{tile}" (CLI11's default-value syntax), which is not what anyone writes.
class HelpFormatter : public CLI::Formatter {
public:
    std::string make_option_name(const CLI::Option* opt, bool positional) const override {
        std::string n = CLI::Formatter::make_option_name(opt, positional);
        for (size_t b; (b = n.find('{')) != std::string::npos;) {
            const size_t e = n.find('}', b);
            if (e == std::string::npos) break;
            n.erase(b, e - b + 1);
        }
        return n;
    }
};

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"tilec - the TileScope tile compiler"};
    app.formatter(std::make_shared<HelpFormatter>());
    app.require_subcommand(1);
    // CLI11 prints the string and exits 0 before it asks for a subcommand.
    app.set_version_flag("--version", "tilec " + ts::rt::versionText(),
                         "print tilec's version (and the git revision it was configured at) and exit");

    CompileCommand cc;
    auto* compile =
        app.add_subcommand("compile", "compile a tile program; print passes, timings, IR or CUDA");
    addCompileFlags(compile, cc.flags);
    compile->add_option("--emit", cc.emit,
                        "print the final 'ir' or the generated 'cuda' ('hip' for hip:gfx90a) "
                        "to stdout")  // an unknown kind: validEmitKind (kinds, hint, exit 1)
        ->check(kNotEmpty);
    compile->add_option("--print-after", cc.printAfter,
                        "print the IR after every pass ('all') or after pass NAME");
    compile->add_flag("--print-changed", cc.printChanged,
                      "print the IR after each pass that changed it");
    compile->add_option("--stop-after", cc.stopAfter, "stop the pipeline after pass NAME");
    compile->add_option("--dump-dir", cc.dumpDir, "write the IR after every pass into DIR");
    compile->add_flag("--no-nvrtc", cc.noNvrtc,
                      "skip compiling the generated code (NVRTC; hiprtc for hip:gfx90a)");
    compile->add_flag("--no-cache", cc.noCache,
                      "ignore the cubin cache (time a real NVRTC compile)");
    compile->add_flag("--list-kernels", cc.listKernels,
                      "list the file's kernels (as `tilec kernels`) and compile nothing; "
                      "--kernel all compiles every one");

    RunCommand rc;
    auto* run = app.add_subcommand(
        "run", "run on the GPU (or --interp on the CPU) and check against the reference");
    addCompileFlags(run, rc.flags);
    run->add_flag("--interp{tile}", rc.interp,
                  "run on the CPU interpreter instead of the GPU: --interp (tile-level IR) or "
                  "--interp=lowered (thread-level, "
                  "after all passes: shared memory, barriers, cp.async, mma layouts)")
        ->check(CLI::IsMember({"tile", "lowered"}))
        ->option_text("[=tile|lowered]");
    run->add_option("--check", rc.check, "reference: 'ref' (ref_program, float64) or 'interp'")
        ->check(CLI::IsMember({"ref", "interp"}));
    addCheckFlags(run, rc.flags);
    run->add_option("--seed", rc.seed, "random seed for the inputs (default: fresh)")->check(kSeed)->option_text("N");
    run->add_option("--dump-outputs", rc.dumpOutputs,
                    "write the outputs of this run (GPU or interpreter) to DIR as raw float32/64 "
                    "NAME.f32/.f64 files plus outputs.json (dtype, shape, tolerance): runs with the same "
                    "--seed compare value by value (bench/differential.py)");
    run->add_option("--ref", rc.ref,
                    "reference function to check against (default: the pragma's @ref, else "
                    "ref_program); a nested one by its path, e.g. run_gemm.ref_program; with "
                    "--chain also FILE::NAME (a function of another file)");
    run->add_option("--chain", rc.chain,
                    "run these kernels of the file in order (K1,K2,...): an input binds to an "
                    "earlier output or input of the same name, or per --bind (--input, --ref-param and "
                    "--ref-inputs are for one kernel: refused with --chain)")
        ->delimiter(',')
        ->transform(kName);
    run->add_option("--bind", rc.binds,
                    "with --chain: K.param=K0.param feeds kernel K's input param from kernel "
                    "K0's output (or input) param");
    run->add_option("--time-limit", rc.timeLimitS,
                    "seconds an interpreter run may take before it stops with an error at the "
                    "loop it is in (default 60; 0 = no limit)")
        ->check(kNonNegative)
        ->option_text("SECONDS");
    run->add_flag("--progress", rc.progress,
                  "show interpreter progress on stderr (block, loop line and iteration) even "
                  "when stderr is not a terminal (on a terminal: after 1 s)");
    run->add_option("--rtol", rc.rtol,
                    "rel-L2 tolerance for float outputs (default: by output dtype, e.g. 1e-5 for "
                    "float32; a float32 T.gemm computes in tf32, ~3e-4)")
        ->check(kPositive);

    BenchCommand bc;
    auto* bench =
        app.add_subcommand("bench", "time the kernel on the GPU (median of reps, TFLOP/s, GB/s)");
    addCompileFlags(bench, bc.flags);
    bench->add_option("--reps", bc.reps, "timed launches")->check(kPositive);
    bench->add_option("--warmup", bc.warmup, "untimed launches first");
    bench->add_option("--json", bc.json, "write the figures as JSON to FILE ('-' = stdout)")->check(kJsonPath);
    bench->add_flag("!--no-check", bc.check, "skip the correctness check of the first launch");
    bench->add_option("--ref", bc.ref, "reference function (as for run)");
    bench->add_option("--baseline", bc.baseline,
                      "also time a library on the same problem: cublas (GEMMs; cuBLAS is loaded "
                      "at run time)");
    addCheckFlags(bench, bc.flags);

    ProfileCommand pc;
    auto* profile = app.add_subcommand(
        "profile", "profile on the GPU: CUPTI kernel duration and hardware counters");
    addCompileFlags(profile, pc.flags);
    profile->add_option("--metrics", pc.metrics,
                        "metrics to read (keys of the default set: duration, dram_read_bytes, "
                        "dram_write_bytes, achieved_occupancy, sm_throughput, tensor_pipe, "
                        "shared_ld_wavefronts, shared_st_wavefronts, ldsm_wavefronts, "
                        "bank_conflicts_ld, bank_conflicts_st, l2_hit_rate; or CUPTI names); "
                        "default: all of them")
        ->delimiter(',');
    profile->add_option("--reps", pc.reps, "event-timed and activity-recorded launches")
        ->check(kPositive);
    profile->add_flag("--no-counters", pc.noCounters, "skip the range profiler (timing only)");
    profile->add_option("--json", pc.json, "write the figures as JSON to FILE ('-' = stdout)")->check(kJsonPath);
    profile->add_option("--ref", pc.ref, "reference function (as for run)");

    TuneCommand tuneCmd;
    auto* tune = app.add_subcommand(
        "tune", "autotune: run the @autotune configs (or --sweep) checked and timed, pick the best");
    addCompileFlags(tune, tuneCmd.flags);
    tune->add_option("--sweep", tuneCmd.sweeps,
                     "NAME=V1,V2,... (repeatable; the cartesian product); default: the kernel's "
                     "@autotune(configs=...)");
    tune->add_option("--jobs,-j", tuneCmd.jobs, "compile threads")->check(kPositive);
    tune->add_option("--reps", tuneCmd.reps, "timed launches per variant")->check(kPositive);
    tune->add_flag("--interp{tile}", tuneCmd.interp,
                   "check the variants on the tile-level interpreter instead of the GPU "
                   "(correctness only)");
    tune->add_option("--json", tuneCmd.json, "write every variant as JSON to FILE ('-' = stdout)")->check(kJsonPath);
    tune->add_option("--ref", tuneCmd.ref, "reference function (as for run)");
    tune->add_option("--rtol", tuneCmd.rtol, "rel-L2 tolerance (default: by output dtype)")
        ->check(kPositive);
    tune->add_option("--seed", tuneCmd.seed,
                     "input seed of every variant (default: one fixed seed, the same inputs for "
                     "variants of the same shapes); 0: fresh inputs for every variant")
        ->check(kSeed);
    tune->add_option("--input", tuneCmd.flags.inputRules,
                     "fill input tensor NAME by RULE instead of random values (as for run)")
        ->check(kInputRule);
    tune->add_flag("--no-cache", tuneCmd.noCache, "re-run variants the results store already has");
    tune->add_option("--max-configs", tuneCmd.maxConfigs, "only the first N configurations");
    tune->add_option("--devices", tuneCmd.devices,
                     "GPU ordinals to tune on, one worker each (e.g. 0,1; default: every visible "
                     "GPU, or $TILESCOPE_DEVICE)");
    tune->add_option("--baseline", tuneCmd.baseline,
                     "also time a library on the same problem: cublas (GEMMs; stored as kind "
                     "'baseline', shown in the Compare view)");

    ResultsCommand resc;
    auto* results = app.add_subcommand("results", "list the stored run/bench/profile/tune results");
    auto* fmt = results->add_option_group("format");
    bool asJson = false, asCsv = false;
    fmt->add_flag("--json", asJson, "all fields as a JSON array");
    fmt->add_flag("--csv", asCsv, "CSV, one column per metric");
    fmt->require_option(0, 1);
    results->add_option("--kind", resc.kind, "only run | bench | profile | tune")->check(CLI::IsMember({"run", "bench", "profile", "tune"}));
    results->add_option("--last", resc.last, "only the last N records")->check(kPositive);
    results->add_option("--store", resc.file,
                        "the store file (default $TILESCOPE_RESULTS, else "
                        "~/.local/share/tilescope/results.jsonl)");

    LaunchCommand lac;
    auto* launch = app.add_subcommand(
        "launch", "run raw CUDA kernels K(float* out, int n) of a .cu file in the GPU worker, in "
                  "order (fault-isolation check)");
    launch->add_option("file", lac.file, "CUDA C++ file")->required();
    launch->add_option("--kernel,-k", lac.kernels, "kernel names, in order")
        ->delimiter(',')
        ->required();
    launch->add_option("--grid", lac.grid, "blocks")->check(kPositive);
    launch->add_option("--block", lac.block, "threads per block")->check(kPositive);
    launch->add_option("--elements", lac.elements, "n, the length of out")
        ->check(kPositive);

    double timeoutS = 0;
    for (auto* sub : {run, bench, profile, tune, launch})
        sub->add_option("--timeout", timeoutS,
                        "seconds a GPU run may take before its worker process is killed "
                        "(default $TILESCOPE_WORKER_TIMEOUT, else 120)")
            ->check(kPositive);

    bool allowTestFaults = false;
    auto* worker = app.add_subcommand(
        "worker", "serve GPU requests on stdin/stdout (started by tilec and the IDE, not by hand)");
    worker->add_flag("--allow-test-faults", allowTestFaults,
                     "accept requests that crash or hang the worker on purpose (tests)");
    uint32_t workerMaxFrame = ts::rt::worker::kDefaultMaxFrameBytes;
    worker->add_option("--max-frame-bytes", workerMaxFrame,
                       "largest protocol frame read or written (tests; default 1 GiB)")
        ->check(CLI::Range(uint32_t{64}, ts::rt::worker::kDefaultMaxFrameBytes));

    std::string passesTarget;
    app.add_subcommand("passes", "list the pipeline's passes (they differ by target)")
        ->add_option("--target", passesTarget, "cuda:sm_80 | cuda:sm_90a | hip:gfx90a (default: the attached GPU, else cuda:sm_80)");

    CompileFlags kf;
    auto* kernels = app.add_subcommand(
        "kernels", "list the kernels of a file (name, shape, line, parameters; default marked)");
    kernels->add_option("file", kf.file, "tile program (.py, TileLang syntax)")->required();

    BanksCommand kc;
    auto* banks = app.add_subcommand(
        "banks", "predicted shared-memory bank conflicts per access (lowered IR)");
    addCompileFlags(banks, kc.flags);
    banks->add_flag("--sort", kc.sortByExcess, "sort by excess wavefronts");
    banks->add_option("--heatmap", kc.heatmap,
                      "print the lanes x banks map of access N (row index of the table)");
    banks->add_option("--json", kc.json,
                      "write predicted per-kernel totals as JSON to FILE ('-' = stdout)")
        ->check(kJsonPath);
    banks->add_flag(
        "--measure", kc.measure,
        "run once on the GPU under CUPTI and print measured counters next to the prediction");
    banks->add_flag(
        "--list-metrics", kc.listMetrics,
        "list the GPU's CUPTI metrics containing --metric-filter (FILE is still required)");
    banks->add_option("--metric-filter", kc.metricFilter,
                      "substring for --list-metrics (default: shared)");

    LayoutCommand lc;
    auto* layout = app.add_subcommand("layout",
                                      "show the layout of one buffer or a hardware layout "
                                      "(thread/local or offset/bank per element)");
    layout->add_option("file", lc.flags.file,
                       "tile program (.py, TileLang syntax); omit with --builtin");
    layout->add_option("--param,-p", lc.flags.params,
                       "override a factory parameter: NAME=VALUE (repeatable)");
    layout->add_option("--target", lc.flags.target,
                       "cuda:sm_80 | cuda:sm_90a | hip:gfx90a (default: the attached GPU, else cuda:sm_80)");
    layout->add_option("--kernel,-k", lc.flags.kernel, "the kernel of a file with several");
    layout->add_option("--builtin", lc.builtin,
                       "show a hardware layout instead: mma_a[:B], mma_b[:B] (B = operand "
                       "bytes: 2 fp16/bf16, 1 int8/fp8, 4 tf32), mma_c, wgmma_c:N, mfma_a, "
                       "mfma_b, mfma_c, ldmatrix:N, ldmatrix_t:N (N = matrices: 1, 2 or 4; "
                       "ldmatrix:x4 is accepted too)");
    layout->add_option("--shape", lc.shape,
                       "with --builtin: block tile ROWSxCOLS (default: one warp's atom)");
    layout->add_option(
        "--warps", lc.warps,
        "with --builtin: grid of warps (warpgroups for wgmma, waves for mfma) AxB, default 1x1");
    layout->add_option("--buffer", lc.buffer,
                       "buffer name (omit to list the buffers with layouts)");
    layout->add_option("--svg", lc.svg, "write the grid as SVG to FILE");
    layout->add_option("--tile", lc.tile, "pipeline stage of a multi-buffered shared tile");
    layout->add_option("--thread", lc.thread, "outline this thread's cells in the SVG");

    DebugCommand dc;
    auto* debug = app.add_subcommand(
        "debug", "step through one block of the kernel on the thread-level interpreter");
    addCompileFlags(debug, dc.flags);
    debug->add_option("--block", dc.block, "block to run and stop in: bx,by (default 0,0)");
    debug->add_option("--break", dc.breakLines, "stop at this source line (repeatable)");
    debug->add_option("--break-op", dc.breakOps,
                      "stop where a tile op starts: gemm, copy, fill, reduce, ... (repeatable)");
    debug->add_flag("--break-barrier", dc.breakBarrier, "stop at every barrier");
    debug->add_option("--step", dc.steps, "steps to take after the first stop")->check(kNonNegative);
    debug->add_option("--step-kind", dc.stepKind,
                      "tile-op (next source line, default), into, over, out (statements of the "
                      "lowered IR), barrier, iteration (of the pipelined loop), continue");
    debug->add_option("--back", dc.back, "reverse steps to take after stepping")->check(kNonNegative);
    debug->add_option("--print", dc.prints,
                      "print NAME or NAME[i, j] for --thread (fragments: logical indices through "
                      "their layout; repeatable)");
    debug->add_option("--holds", dc.holds,
                      "print which elements of this fragment --thread holds (repeatable)");
    debug->add_flag("--print-barriers", dc.printBarriers,
                    "print every named barrier and mbarrier at the final stop (phase, arrivals, "
                    "transaction bytes)");
    debug->add_option("--thread", dc.thread, "thread of the block for --print/--holds (default 0)");
    debug->add_option("--seed", dc.seed, "seed of the random inputs (as tilec run)")->check(kSeed);
    debug->add_option("--input", dc.flags.inputRules,
                      "fill input tensor NAME by RULE instead of random values, as tilec run's --input "
                      "(NAME=offsets:TOTAL, int:LO:HI, uniform:LO:HI, distinct:N, fill:V, arange, values:..., @PATH; repeatable)")
        ->check(kInputRule);

    ValidateCommand vc;
    auto* validate = app.add_subcommand(
        "validate",
        "interpret the kernel after every pass; name the first pass that changes "
        "the result");
    addCompileFlags(validate, vc.flags);
    validate->add_option("--seed", vc.seed, "seed of the random inputs")->check(kSeed);
    validate->add_option("--input", vc.flags.inputRules,
                         "fill input tensor NAME by RULE instead of random values, as tilec run's --input (repeatable)")
        ->check(kInputRule);
    validate->add_option("--max-blocks", vc.maxBlocks,
                         "interpret only the first N blocks (compares what they write)")
        ->check(kPositive);
    validate->add_option("--ref", vc.ref, "reference function (as for run)");
    TimelineCommand tc;
    auto* timeline = app.add_subcommand(
        "timeline", "static pipeline timeline of each T.Pipelined loop: issue/wait/barrier/mma "
                    "order per warp role and iteration, stage occupancy; on sm_90a the TMA + "
                    "mbarrier schedule with its barrier phases and the static barrier check");
    addCompileFlags(timeline, tc.flags);
    timeline->add_option("--json", tc.json, "write the timeline as JSON to FILE ('-' = stdout)")->check(kJsonPath);
    timeline->add_option("--trips", tc.trips, "trip count for loops whose extent is not a constant")->check(kPositive);
    std::vector<int64_t> timelineBlock;
    timeline->add_option("--block", timelineBlock, "sm_90a: blockIdx x,y,z of the block modelled (default 0,0,0)")
        ->delimiter(',')
        ->type_name("X[,Y[,Z]]")
        ->check(kBlockIndex);
    TraceCommand trc;
    auto* traceCmd = app.add_subcommand(
        "trace", "run the kernel once with %globaltimer stamps at its pipeline stages and barrier waits "
                 "(GPU) and write them beside the static plan as Chrome trace JSON (Perfetto opens it)");
    addCompileFlags(traceCmd, trc.flags);
    traceCmd->add_option("--out,-o", trc.out, "Chrome trace JSON to write ('-' = stdout)")->required();
    traceCmd->add_option("--blocks", trc.blocks, "linear block ids to trace (default 0)")->delimiter(',');
    traceCmd->add_option("--capacity", trc.capacity, "stamps kept per warp (default: enough for the static plan, at least 512)");
    traceCmd->add_option("--reps", trc.reps, "also time the plain and the instrumented kernel (median of N) for the overhead");
    ExportCommand ec;
    auto* exportCmd = app.add_subcommand(
        "export",
        "write a standalone nvcc project (kernel, launcher that checks its outputs "
        "against the CPU reference, CMake/Makefile for the target's architecture)");
    addCompileFlags(exportCmd, ec.flags);
    exportCmd->add_option("--out,-o", ec.out, "folder to write")->required();
    exportCmd->add_option("--name", ec.name, "executable name (default: the file's stem)");

    // Notes explain what the compiler chose (why a copy did not take TMA, which path a T.gemm
    // took, where parameter values came from); scripts and repeated runs can silence them.
    bool quietFlag = false;
    for (auto* sub : {compile, run, bench, profile, tune, kernels, banks, layout, debug, validate,
                      timeline, traceCmd, exportCmd})
        sub->add_flag("-q,--quiet", quietFlag,
                      std::string("print no notes (why a copy did not take TMA, the T.gemm path, where "
                      "parameter values came from); warnings and errors are still printed") +
                          (sub == run ? "; besides them only the check (each output's line, PASS/FAIL)" : ""));

    if (const std::string bad = ts::cli::emptyCommaListPiece(app, argc, argv); !bad.empty()) {
        std::cerr << "tilec: error: " << bad << "\n";
        return 2;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // `tilec foo`: CLI11 says only "A subcommand is required"; name the word and the commands.
        const auto subs = static_cast<const CLI::App&>(app).get_subcommands([](const CLI::App*) { return true; });
        const bool known = argc > 1 && std::any_of(subs.begin(), subs.end(), [&](const CLI::App* sub) { return sub->get_name() == argv[1]; });
        if (argc > 1 && argv[1][0] != '-' && !known) {
            std::cerr << "tilec: error: unknown command '" << argv[1] << "' (commands: " << commandList(app)
                      << "; tilec --help describes them)\n";
            return 2;
        }
        // --help and --version (CLI::Success): CLI11 prints them, exit 0.
        if (dynamic_cast<const CLI::Success*>(&e)) return app.exit(e);
        // Words CLI11 did not take (a misspelt option; before the subcommand too: `tilec
        // --verison` fails as "A subcommand is required").
        if (!app.remaining(true).empty()) return reportExtras(app, argc, argv);
        return reportParseError(app, e);
    }
    // The subcommands report every expected problem themselves (exit 1); runGuarded turns an
    // exception that still escapes (a bug) into a message and exit 2 instead of std::terminate.
    if (worker->parsed()) return runWorker(allowTestFaults, workerMaxFrame);
    if (timeoutS > 0) setWorkerTimeoutS(timeoutS);
    setQuiet(quietFlag);
    return runGuarded([&] {
        if (compile->parsed())
            return cc.listKernels             ? runKernels(cc.flags)
                   : cc.flags.kernel == "all" ? runCompileAll(cc)
                                              : runCompile(cc);
        if (kernels->parsed()) return runKernels(kf);
        if (run->parsed()) {
            if (rc.chain.empty() && !rc.binds.empty()) {
                std::cerr << "tilec: error: --bind connects the kernels of a --chain; this run has no --chain\n"
                          << "  hint: tilec run FILE --chain K1,K2 --bind K2.in=K1.out\n";
                return 1;
            }
            return rc.chain.empty() ? runRun(rc) : runChain(rc);
        }
        if (bench->parsed()) return runBench(bc);
        if (profile->parsed()) return runProfile(pc);
        if (tune->parsed()) return runTune(tuneCmd);
        if (launch->parsed()) return runLaunch(lac);
        if (results->parsed()) {
            resc.format = asJson ? "json" : asCsv ? "csv" : "table";
            return runResults(resc);
        }
        if (banks->parsed()) return runBanks(kc);
        if (layout->parsed()) return runLayout(lc);
        if (debug->parsed()) return runDebug(dc);
        if (validate->parsed()) return runValidate(vc);
        if (timeline->parsed()) {
            if (timelineBlock.size() > 3) {
                std::cerr << "tilec: error: --block takes one to three indices X[,Y[,Z]], got " << timelineBlock.size() << "\n";
                return 2;
            }
            return runTimeline(tc, timelineBlock);
        }
        if (traceCmd->parsed()) return runTrace(trc);
        if (exportCmd->parsed()) return runExport(ec);
        return runPasses(passesTarget);
    });
}
