// Sibling modules: `from block_causal_attention import _check_dllm_block, LOG2_E` in a file next
// to block_causal_attention.py. Python finds a script's imports in the script's own directory
// first; real TileLang examples keep shared plain-Python helpers (argument checks, constants,
// mask helpers built from T.if_then_else) in a sibling file. The sibling's top level runs in this
// interpreter exactly like the compiled file's (execTopLevel: imports, definitions, constants;
// `__name__` is not "__main__"), so its definitions are the same closures the file's own are,
// and the elaborator (an Interp) sees T.* through its own tilelang.language.
//
// Diagnostics carry no file name (Span is line/col of the compiled file), so an error raised
// inside a sibling's function is re-raised at the call in the compiled file with the sibling's
// file and line in the message (callFunction), and a sibling value that failed to evaluate is
// reported at the import that names it.
#include <filesystem>

#include "compiler/frontend/MetaEval.h"
#include "compiler/frontend/Module.h"
#include "compiler/frontend/Parser.h"
#include "compiler/support/SourceReader.h"

namespace ts::fe {

namespace {
/// `a.b.c` -> `a/b/c` under `dir`, if every part is an identifier (no `..` tricks); empty if not.
std::filesystem::path modulePath(const std::string& dir, const std::string& dotted) {
    std::filesystem::path p(dir);
    size_t start = 0;
    while (true) {
        size_t dot = dotted.find('.', start);
        std::string part = dotted.substr(start, dot == std::string::npos ? dot : dot - start);
        if (part.empty() || std::isdigit(static_cast<unsigned char>(part[0]))) return {};
        for (char c : part)
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return {};
        p /= part;
        if (dot == std::string::npos) return p;
        start = dot + 1;
    }
}
}  // namespace

std::shared_ptr<NamespaceObj> Interp::loadSibling(const std::string& dotted) {
    if (m_siblingDir.empty()) return nullptr;
    if (auto m = module(dotted)) return m;
    std::filesystem::path base = modulePath(m_siblingDir, dotted);
    if (base.empty()) return nullptr;
    // A module file `a/b.py`, else a package `a/b/__init__.py` (Python's order for a script's
    // directory on sys.path).
    std::error_code ec;
    std::filesystem::path path = base;
    path += ".py";
    bool package = false;
    if (!std::filesystem::is_regular_file(path, ec)) {
        path = base / "__init__.py";
        package = true;
        if (!std::filesystem::is_regular_file(path, ec)) return nullptr;
    }
    // A submodule's package is imported (its __init__ run) first, as Python does.
    size_t dot = dotted.rfind('.');
    if (dot != std::string::npos && !loadSibling(dotted.substr(0, dot))) return nullptr;
    if (auto m = module(dotted)) return m;  // the package's __init__ imported it
    SourceReadResult read = readSourceFile(path.string());
    if (!read.ok()) return nullptr;
    // Registered before its top level runs, like sys.modules: a sibling importing the compiled
    // file's other siblings (or itself, circularly) sees the module being initialised.
    auto ns = registerModule(dotted);
    ns->siblingFile = std::filesystem::relative(path, m_siblingDir, ec).generic_string();
    if (ns->siblingFile.empty()) ns->siblingFile = path.filename().string();
    DiagnosticEngine parseDiags;
    auto ast = parseModule(std::make_shared<SourceFile>(path.string(), std::move(read.text)),
                           parseDiags);
    m_siblingAsts.push_back(ast);
    if (parseDiags.hasErrors()) {
        // A sibling that is not valid Python: any name taken from it reports why.
        ns->opaque = true;
        const Diagnostic& d = parseDiags.all().front();
        ns->opaqueReason = ns->siblingFile + ", line " + std::to_string(d.span.line) + ": " +
                           d.message;
        return ns;
    }
    EnvPtr g = newModuleEnv();
    g->siblingFile = ns->siblingFile;
    g->siblingPackage = package ? dotted : dot == std::string::npos ? "" : dotted.substr(0, dot);
    execTopLevel(*this, *ast, g);
    // Submodules a package's __init__ imported stay attributes of it (registerModule).
    for (const auto& [k, v] : g->vars) ns->members[k] = v;
    return ns;
}

}  // namespace ts::fe
