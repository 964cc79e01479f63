// The tile-program editor (SourceEditor.h).
#include "app/gui/SourceEditor.h"


#include <QKeyEvent>
#include <QRegularExpression>
#include <QTimer>
#include <QToolTip>

#include <Qsci/qsciapis.h>
#include <Qsci/qscilexerpython.h>

#include "app/gui/DebugState.h"
#include "app/gui/Session.h"
#include "app/gui/Theme.h"
#include "compiler/frontend/LanguageRegistry.h"

namespace ts::gui {
namespace {

// Python-level names the meta-evaluator understands (LANGUAGE.md §2), offered next to T.*.
const char* const kMetaNames[] = {
    "range(stop)",
    "range(start, stop, step=1)",
    "len(x)",
    "min(a, b)",
    "max(a, b)",
    "abs(x)",
    "int(x)",
    "float(x)",
    "zip(a, b)",
    "enumerate(x)",
    "sorted(x)",
    "tilelang.jit(out_idx=[-1])",
    "tilelang.language",
    "tilelang.layout.make_swizzled_layout(buf)",
    "ref_program",
};

QString severityName(Severity s) {
    switch (s) {
        case Severity::Error:
            return QStringLiteral("error");
        case Severity::Warning:
            return QStringLiteral("warning");
        case Severity::Note:
            return QStringLiteral("note");
    }
    return {};
}

QString diagText(const Diagnostic& d) {
    QString s = severityName(d.severity) + ": " + QString::fromStdString(d.message);
    if (!d.hint.empty()) s += "\nhint: " + QString::fromStdString(d.hint);
    return s;
}

}  // namespace

SourceEditor::SourceEditor(Session& session, QWidget* parent)
    : QsciScintilla(parent), m_session(session) {
    setUtf8(true);
    m_lexer = new QsciLexerPython(this);
    m_lexer->setIndentationWarning(QsciLexerPython::Inconsistent);
    setLexer(m_lexer);
    setupCompletion();

    setMarginType(0, NumberMargin);
    setMarginLineNumbers(0, true);
    setMarginType(1, SymbolMargin);
    setMarginWidth(1, 16);
    setMarginSensitivity(1, true);
    setFolding(BoxedTreeFoldStyle, 2);
    setAutoIndent(true);
    setIndentationsUseTabs(false);
    setIndentationWidth(4);
    setTabWidth(4);
    setBackspaceUnindents(true);
    setIndentationGuides(true);
    setBraceMatching(SloppyBraceMatch);
    setCaretLineVisible(true);
    setEdgeMode(EdgeLine);
    setEdgeColumn(100);
    setAnnotationDisplay(AnnotationBoxed);
    SendScintilla(SCI_SETSCROLLWIDTHTRACKING, 1);
    SendScintilla(SCI_SETSCROLLWIDTH, 1);
    SendScintilla(SCI_SETMOUSEDWELLTIME, 400);

    indicatorDefine(TextColorIndicator, kIndTName);
    indicatorDefine(SquiggleIndicator, kIndError);
    indicatorDefine(SquiggleIndicator, kIndWarning);
    markerDefine(Circle, kMarkError);
    markerDefine(Circle, kMarkWarning);
    markerDefine(Background, kMarkFocus);
    // The debugger's current line: an arrow in the margin plus a band (issue 11).
    markerDefine(RightArrow, kDebugLineMarker);
    setMarkerBackgroundColor(QColor(255, 200, 0), kDebugLineMarker);
    setMarkerForegroundColor(QColor(160, 110, 0), kDebugLineMarker);
    markerDefine(Background, kDebugLineMarker + 1);
    setMarkerBackgroundColor(QColor(255, 236, 150), kDebugLineMarker + 1);
    m_annotError = QsciStyle(-1, "error note", Qt::red, Qt::white, font());
    m_annotWarning = QsciStyle(-1, "warning note", Qt::darkYellow, Qt::white, font());

    m_tnameTimer = new QTimer(this);
    m_tnameTimer->setSingleShot(true);
    m_tnameTimer->setInterval(60);
    connect(m_tnameTimer, &QTimer::timeout, this, &SourceEditor::highlightTNames);

    applyTheme();
    connect(&ThemeManager::instance(), &ThemeManager::themeChanged, this,
            &SourceEditor::applyTheme);
    connect(this, &QsciScintilla::textChanged, this, &SourceEditor::onTextChanged);
    connect(this, &QsciScintilla::cursorPositionChanged, this, [this](int line, int index) {
        if (m_applyingSession) return;
        uint32_t l = uint32_t(line + 1), c = uint32_t(index + 1);
        m_session.setFocus(Span{l, c, l, c}, FocusOrigin::Source);
    });
    connect(this, &QsciScintillaBase::SCN_DWELLSTART, this, &SourceEditor::onDwell);
    connect(this, &QsciScintillaBase::SCN_DWELLEND, this, [] { QToolTip::hideText(); });

    connect(&session, &Session::documentOpened, this, [this] {
        m_applyingSession = true;
        setText(m_session.text());
        setModified(false);
        SendScintilla(SCI_EMPTYUNDOBUFFER);
        setDiagnostics({});
        m_applyingSession = false;
        highlightTNames();
    });
    connect(&session, &Session::textReplaced, this, &SourceEditor::onSessionTextReplaced);
    connect(&session, &Session::resultChanged, this, &SourceEditor::onResult);
    connect(&session, &Session::focusChanged, this, &SourceEditor::onFocusChanged);
    connect(&DebugState::of(session), &DebugState::lineChanged, this, [this] {
        markerDeleteAll(kDebugLineMarker);
        markerDeleteAll(kDebugLineMarker + 1);
        const Span& s = DebugState::of(m_session).line();
        if (!s.valid() || int(s.line) > lines()) return;
        markerAdd(int(s.line) - 1, kDebugLineMarker);
        markerAdd(int(s.line) - 1, kDebugLineMarker + 1);
        ensureLineVisible(int(s.line) - 1);
    });
    connect(&session, &Session::revealRequested, this, [this](const Span& s) {
        if (s.valid()) goTo(int(s.line), int(s.col));
    });
}

void SourceEditor::setupCompletion() {
    m_apis = new QsciAPIs(m_lexer);
    for (const auto& e : fe::kLanguage) {
        // "T.copy(src, dst, ...)" gives both the completion "copy" after "T." and the call tip.
        QString sig = QString::fromUtf8(e.signature.data(), int(e.signature.size()));
        QString summary = QString::fromUtf8(e.summary.data(), int(e.summary.size()));
        m_apis->add(QStringLiteral("T.") + sig + QStringLiteral(" \u2014 ") + summary);
    }
    for (const char* n : kMetaNames) m_apis->add(QString::fromLatin1(n));
    m_apis->prepare();
    setAutoCompletionSource(AcsAll);
    setAutoCompletionThreshold(2);
    setAutoCompletionCaseSensitivity(true);
    setAutoCompletionReplaceWord(false);
    setAutoCompletionShowSingle(false);
    setCallTipsStyle(CallTipsContext);
    setCallTipsVisible(0);
    setCallTipsPosition(CallTipsBelowText);
}

bool SourceEditor::completionWouldAddNothing() {
    int line = 0, col = 0;
    getCursorPosition(&line, &col);
    const QString before = text(line).left(col);
    int start = int(before.size());
    while (start > 0 && (before[start - 1].isLetterOrNumber() || before[start - 1] == '_')) --start;
    const QString word = before.mid(start);
    if (word.isEmpty()) return false;
    // SCI_AUTOCGETCURRENTTEXT writes the selected entry (NUL-terminated) into the buffer.
    const long len = SendScintilla(SCI_AUTOCGETCURRENTTEXT, 0ul, static_cast<void*>(nullptr));
    if (len <= 0) return false;
    QByteArray entry(int(len) + 1, '\0');
    SendScintilla(SCI_AUTOCGETCURRENTTEXT, 0ul, static_cast<void*>(entry.data()));
    QString current = QString::fromUtf8(entry.constData());
    // API entries carry a signature and summary ("copy(src, dst) — ..."): compare the name.
    const qsizetype cut = current.indexOf(QRegularExpression("[^A-Za-z0-9_]"));
    if (cut >= 0) current.truncate(cut);
    return current == word;
}

void SourceEditor::keyPressEvent(QKeyEvent* e) {
    const bool enter = e->key() == Qt::Key_Return || e->key() == Qt::Key_Enter;
    if (enter && e->modifiers() == Qt::NoModifier && isListActive() && completionWouldAddNothing())
        cancelList();
    QsciScintilla::keyPressEvent(e);
}

void SourceEditor::applyTheme() {
    auto& tm = ThemeManager::instance();
    const Theme& t = tm.theme();
    tm.styleLexer(m_lexer);
    tm.styleView(this);
    setIndicatorForegroundColor(t.tname, kIndTName);
    setIndicatorForegroundColor(t.error, kIndError);
    setIndicatorForegroundColor(t.warning, kIndWarning);
    setMarkerBackgroundColor(t.error, kMarkError);
    setMarkerForegroundColor(t.error, kMarkError);
    setMarkerBackgroundColor(t.warning, kMarkWarning);
    setMarkerForegroundColor(t.warning, kMarkWarning);
    setMarkerBackgroundColor(t.crossHighlight, kMarkFocus);
    setCallTipsBackgroundColor(t.dark ? QColor("#3c3f41") : QColor("#fffbe6"));
    setCallTipsForegroundColor(t.text);
    setCallTipsHighlightColor(t.accent);
    QFont small = tm.codeFont();
    small.setPointSize(small.pointSize() - 1);
    m_annotError.setColor(t.error);
    m_annotError.setPaper(t.dark ? QColor("#3a2326") : QColor("#fff0ef"));
    m_annotError.setFont(small);
    m_annotWarning.setColor(t.warning);
    m_annotWarning.setPaper(t.dark ? QColor("#3a3423") : QColor("#fff8e1"));
    m_annotWarning.setFont(small);
    setMarginWidth(0, QStringLiteral(" 9999 "));
    setDiagnostics(m_diags);  // re-annotate with the new styles
    highlightTNames();
}

void SourceEditor::onTextChanged() {
    m_tnameTimer->start();
    if (m_applyingSession) return;
    m_session.setTextFromEditor(text());
}

void SourceEditor::onSessionTextReplaced(const QString& newText) {
    // Apply only the differing middle part, so undo, caret and scroll stay where they were.
    const QString old = text();
    if (old == newText) return;
    int pre = 0;
    while (pre < old.size() && pre < newText.size() && old[pre] == newText[pre]) ++pre;
    int suf = 0;
    while (suf < old.size() - pre && suf < newText.size() - pre &&
           old[old.size() - 1 - suf] == newText[newText.size() - 1 - suf])
        ++suf;
    QByteArray oldUtf8Pre = old.left(pre).toUtf8();
    QByteArray oldUtf8Mid = old.mid(pre, old.size() - pre - suf).toUtf8();
    QByteArray mid = newText.mid(pre, newText.size() - pre - suf).toUtf8();
    m_applyingSession = true;
    SendScintilla(SCI_SETTARGETRANGE, long(oldUtf8Pre.size()),
                  long(oldUtf8Pre.size() + oldUtf8Mid.size()));
    SendScintilla(SCI_REPLACETARGET, long(mid.size()), mid.constData());
    m_applyingSession = false;
}

long SourceEditor::positionOf(uint32_t line, uint32_t col) const {
    if (line == 0) return -1;
    long start = SendScintilla(SCI_POSITIONFROMLINE, long(line - 1));
    if (start < 0) return -1;
    long end = SendScintilla(SCI_GETLINEENDPOSITION, long(line - 1));
    return std::min(end, start + long(col > 0 ? col - 1 : 0));
}

void SourceEditor::setDiagnostics(const std::vector<Diagnostic>& diags) {
    m_diags = diags;
    long len = SendScintilla(SCI_GETLENGTH);
    for (int ind : {kIndError, kIndWarning}) {
        SendScintilla(SCI_SETINDICATORCURRENT, ind);
        SendScintilla(SCI_INDICATORCLEARRANGE, 0L, len);
    }
    markerDeleteAll(kMarkError);
    markerDeleteAll(kMarkWarning);
    clearAnnotations();
    std::map<int, std::pair<QString, bool>> notes;  // line -> (text, has an error)
    for (const Diagnostic& d : m_diags) {
        if (!d.span.valid() || d.severity == Severity::Note) continue;
        bool err = d.severity == Severity::Error;
        long a = positionOf(d.span.line, d.span.col);
        long b = d.span.endLine ? positionOf(d.span.endLine, d.span.endCol) : a;
        if (a < 0) continue;
        if (b <= a) {
            // Zero-width span: underline the word (or the rest of the line) at the position.
            long wordEnd = SendScintilla(SCI_WORDENDPOSITION, a, 1L);
            long lineEnd = SendScintilla(SCI_GETLINEENDPOSITION, long(d.span.line - 1));
            b = wordEnd > a ? wordEnd : std::max(a + 1, lineEnd);
            if (a == lineEnd && a > 0) --a;  // at end of line: mark the last character
        }
        SendScintilla(SCI_SETINDICATORCURRENT, err ? kIndError : kIndWarning);
        SendScintilla(SCI_INDICATORFILLRANGE, a, b - a);
        int line = int(d.span.line) - 1;
        markerAdd(line, err ? kMarkError : kMarkWarning);
        QString note = severityName(d.severity) + ": " + QString::fromStdString(d.message);
        if (!d.hint.empty()) note += "  (hint: " + QString::fromStdString(d.hint) + ")";
        auto& n = notes[line];
        n.first += (n.first.isEmpty() ? "" : "\n") + note;
        n.second = n.second || err;
    }
    if (m_inlineDiagnostics)
        for (auto& [line, n] : notes)
            annotate(line, n.first, n.second ? m_annotError : m_annotWarning);
}

void SourceEditor::setInlineDiagnostics(bool on) {
    m_inlineDiagnostics = on;
    setDiagnostics(m_diags);
}

std::vector<int> SourceEditor::markedLines() const {
    std::vector<int> out;
    unsigned mask = (1u << kMarkError) | (1u << kMarkWarning);
    int line = int(SendScintilla(SCI_MARKERNEXT, 0L, long(mask)));
    while (line >= 0) {
        out.push_back(line);
        line = int(SendScintilla(SCI_MARKERNEXT, long(line + 1), long(mask)));
    }
    return out;
}

QString SourceEditor::diagnosticTextAt(int pos) const {
    QStringList parts;
    long line = SendScintilla(SCI_LINEFROMPOSITION, long(pos)) + 1;
    for (const Diagnostic& d : m_diags) {
        if (!d.span.valid()) continue;
        long a = positionOf(d.span.line, d.span.col);
        long b = d.span.endLine ? positionOf(d.span.endLine, d.span.endCol) : a;
        bool inside = pos >= a && pos <= std::max(b, a + 1);
        if (inside || (pos < 0 && long(d.span.line) == line)) parts << diagText(d);
    }
    return parts.join("\n\n");
}

void SourceEditor::onDwell(int position, int x, int y) {
    QString tip;
    if (position >= 0) {
        tip = diagnosticTextAt(position);
    } else {
        // Over the margin (no text position): the diagnostics of that line.
        long pos = SendScintilla(SCI_POSITIONFROMPOINT, long(x), long(y));
        long line = SendScintilla(SCI_LINEFROMPOSITION, pos) + 1;
        QStringList parts;
        for (const Diagnostic& d : m_diags)
            if (long(d.span.line) == line) parts << diagText(d);
        tip = parts.join("\n\n");
    }
    if (!tip.isEmpty()) QToolTip::showText(viewport()->mapToGlobal(QPoint(x, y + 12)), tip, this);
}

void SourceEditor::onResult() {
    auto r = m_session.result();
    if (r) setDiagnostics(r->diagnostics);
}

void SourceEditor::onFocusChanged() {
    markerDeleteAll(kMarkFocus);
    const Focus& f = m_session.focus();
    if (f.origin == FocusOrigin::Source || f.origin == FocusOrigin::None || !f.span.valid()) return;
    int first = int(f.span.line) - 1;
    int last = int(std::max(f.span.endLine, f.span.line)) - 1;
    for (int l = first; l <= last && l < lines(); ++l) markerAdd(l, kMarkFocus);
    int top = firstVisibleLine();
    int visible = int(SendScintilla(SCI_LINESONSCREEN));
    if (first < top || first >= top + visible)
        setFirstVisibleLine(std::max(0, first - visible / 3));
}

void SourceEditor::highlightTNames() {
    long len = SendScintilla(SCI_GETLENGTH);
    SendScintilla(SCI_SETINDICATORCURRENT, kIndTName);
    SendScintilla(SCI_INDICATORCLEARRANGE, 0L, len);
    static const QRegularExpression re(QStringLiteral("\\bT\\.([A-Za-z_][A-Za-z0-9_]*)"));
    QByteArray utf8 = text().toUtf8();
    // Byte offsets are what Scintilla wants; matching on the Latin-1 view keeps them 1:1.
    QString latin = QString::fromLatin1(utf8);
    for (auto it = re.globalMatch(latin); it.hasNext();) {
        auto m = it.next();
        QByteArray name = m.captured(1).toLatin1();
        if (!fe::findLanguageEntry(std::string_view(name.constData(), size_t(name.size()))))
            continue;
        SendScintilla(SCI_INDICATORFILLRANGE, long(m.capturedStart(0)), long(m.capturedLength(0)));
    }
}

void SourceEditor::goTo(int line, int col) {
    setCursorPosition(std::max(0, line - 1), std::max(0, col - 1));
    ensureLineVisible(std::max(0, line - 1));
    int visible = int(SendScintilla(SCI_LINESONSCREEN));
    setFirstVisibleLine(std::max(0, line - 1 - visible / 3));
    setFocus();
}

}  // namespace ts::gui
