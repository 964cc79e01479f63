// DebugState: the debugger's line and problems, one per Session.
#include "app/gui/DebugState.h"

#include "app/gui/Session.h"

namespace ts::gui {

DebugState& DebugState::of(Session& session) {
    if (auto* s = session.findChild<DebugState*>(QString(), Qt::FindDirectChildrenOnly)) return *s;
    return *new DebugState(&session);
}

void DebugState::setLine(const Span& span) {
    if (span == m_line) return;
    m_line = span;
    emit lineChanged();
}

void DebugState::setProblems(std::vector<Diagnostic> diags) {
    m_problems = std::move(diags);
    emit problemsChanged();
}

}  // namespace ts::gui
