// What the step debugger (DebuggerPanel) shows outside its own panel, owned by the Session as a
// child object so that every view finds the same one: the line the debugger is paused at (the
// editor's current-line marker) and the problems its checkers found (listed by the Problems
// panel after the compile's diagnostics, clickable like them). Panels observe its signals; they
// never talk to the Debugger panel directly.
#pragma once
#include <QObject>
#include <vector>

#include "compiler/support/Diagnostic.h"

namespace ts::gui {

class Session;

/// Marker number of the debugger's current line in the source editor (QScintilla marker).
inline constexpr int kDebugLineMarker = 4;

class DebugState : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    /// The session's debug state (created on first use, owned by the session).
    static DebugState& of(Session& session);

    /// 1-based line where the debugger is paused; invalid span: not paused.
    const Span& line() const { return m_line; }
    void setLine(const Span& span);
    /// Checker reports (race, stale read, deadlock, ...): an error plus notes at the other lines.
    const std::vector<Diagnostic>& problems() const { return m_problems; }
    void setProblems(std::vector<Diagnostic> diags);

signals:
    void lineChanged();
    void problemsChanged();

private:
    Span m_line;
    std::vector<Diagnostic> m_problems;
};

}  // namespace ts::gui
