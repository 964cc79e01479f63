// Diagnostics: the only way the compiler reports problems. Libraries never print; the CLI and
// the GUI render these (DESIGN.md §2, LANGUAGE.md §5).
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/support/Source.h"

namespace ts {

enum class Severity { Error, Warning, Note };

/// One message at a source location. `message` is in the user's terms; `hint` says what to do.
struct Diagnostic {
    Severity severity = Severity::Error;
    Span span;
    std::string message;
    std::string hint;    ///< optional "what to do" line
    std::string origin;  ///< phase/pass that produced it ("parse", "elaborate", "infer-layouts")
};

/// Collects diagnostics for one compile.
class DiagnosticEngine {
public:
    void error(Span s, std::string msg, std::string hint = {}, std::string origin = {});
    void warning(Span s, std::string msg, std::string hint = {}, std::string origin = {});
    void add(Diagnostic d) { m_diags.push_back(std::move(d)); }
    bool hasErrors() const;
    const std::vector<Diagnostic>& all() const { return m_diags; }
    std::vector<Diagnostic> take() { return std::move(m_diags); }

private:
    std::vector<Diagnostic> m_diags;
};

/// Keeps the first `maxErrors` errors (and the warnings/notes before the cut) and appends a note
/// "N more error(s) not shown" (origin "errors"): after that many, later errors are mostly consequences of the
/// first ones. Returns `all` unchanged when it has at most `maxErrors` errors.
std::vector<Diagnostic> capErrors(std::vector<Diagnostic> all, size_t maxErrors);

/// Thrown inside the compiler to abort the current phase with a user-facing error; caught at
/// phase boundaries (never escapes compile()). Use for errors after which going on is pointless.
struct CompileError : std::runtime_error {
    Diagnostic diag;
    explicit CompileError(Diagnostic d) : std::runtime_error(d.message), diag(std::move(d)) {}
    CompileError(Span s, std::string msg, std::string hint = {})
        : CompileError(Diagnostic{Severity::Error, s, std::move(msg), std::move(hint), {}}) {}
};

/// Renders "file:line:col: error: message" + the source line + a caret + hint, like clang.
std::string formatDiagnostic(const Diagnostic& d, const SourceFile* src);

}  // namespace ts
