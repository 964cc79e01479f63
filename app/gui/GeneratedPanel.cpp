// Generated CUDA view (GeneratedPanel.h).
#include "app/gui/GeneratedPanel.h"

#include <QLabel>
#include <QVBoxLayout>

#include "app/gui/CodeView.h"
#include "app/gui/Session.h"
#include "app/gui/Theme.h"
#include "visualizer/core/CrossRef.h"

namespace ts::gui {

GeneratedPanel::GeneratedPanel(Session& session, QWidget* parent)
    : QWidget(parent), m_session(session) {
    m_header = new QLabel(this);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_header->setWordWrap(true);
    m_view = new CodeView(CodeView::Language::Cpp, this);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    lay->setSpacing(4);
    lay->addWidget(m_header);
    lay->addWidget(m_view, 1);

    connect(&session, &Session::resultChanged, this, &GeneratedPanel::onResult);
    connect(&session, &Session::focusChanged, this, &GeneratedPanel::updateCrossHighlight);
    connect(m_view, &CodeView::lineClicked, this, [this](int line) {
        auto r = m_session.shown();
        if (!r || line >= int(r->cudaLineSpans.size())) return;
        if (r->cudaLineSpans[line].valid())
            m_session.setFocus(r->cudaLineSpans[line], FocusOrigin::Generated);
    });
    onResult();
}

void GeneratedPanel::onResult() {
    auto r = m_session.shown();
    if (!r) {
        m_header->setText(tr("<i>Not compiled yet</i>"));
        m_view->setCode(QString(), false);
        return;
    }
    if (r->cuda.empty()) {
        // Keep the last generated code on screen while the program has errors, but say so.
        m_header->setText(tr("<span style='color:%1'>No code generated: the program has errors "
                             "(see Problems).</span> The code below is from the last successful "
                             "compile.")
                              .arg(theme().error.name()));
        return;
    }
    const KernelInfo& k = r->kernel;
    QString header =
        tr("<b>%1</b> &nbsp; grid (%2, %3, %4) &nbsp; block (%5, %6, %7) &nbsp; smem %8")
            .arg(QString::fromStdString(k.name).toHtmlEscaped())
            .arg(k.grid[0])
            .arg(k.grid[1])
            .arg(k.grid[2])
            .arg(k.block[0])
            .arg(k.block[1])
            .arg(k.block[2])
            .arg(k.dynamicSmemBytes >= 1024 ? QString("%1 KiB").arg(k.dynamicSmemBytes / 1024.0, 0, 'g', 4)
                                            : QString("%1 B").arg(qulonglong(k.dynamicSmemBytes)));
    if (m_session.shownIsStale())
        header += tr(" &nbsp; <span style='color:%1'>(last successful compile)</span>")
                      .arg(theme().warning.name());
    m_header->setText(header);
    m_header->setToolTip(tr("Dynamic shared memory %1 bytes; codegen took %2 ms")
                             .arg(qulonglong(k.dynamicSmemBytes))
                             .arg(r->codegenMicros / 1000.0, 0, 'f', 2));
    m_view->setCode(QString::fromStdString(r->cuda));
    updateCrossHighlight();
}

void GeneratedPanel::updateCrossHighlight() {
    auto r = m_session.shown();
    if (!r || r->cuda.empty()) return;
    const Focus& f = m_session.focus();
    std::vector<int> lines;
    if (f.origin == FocusOrigin::Source)
        lines = viz::linesForSourceLine(r->cudaLineSpans, f.span.line);
    else if (f.origin != FocusOrigin::None)
        lines = viz::linesWithinSpan(r->cudaLineSpans, f.span);
    m_view->setHighlightedLines(lines, f.origin != FocusOrigin::Generated);
}

}  // namespace ts::gui
