// Read-only code view with cross-highlight bands (CodeView.h).
#include "app/gui/CodeView.h"

#include <Qsci/qscilexercpp.h>
#include <Qsci/qscilexerpython.h>

#include "app/gui/Theme.h"

namespace ts::gui {
namespace {

// CUDA keywords the C++ lexer does not know, shown in the "secondary keywords" colour.
const char* kCudaWords =
    "__global__ __device__ __host__ __shared__ __constant__ __restrict__ __forceinline__ "
    "__syncthreads __launch_bounds__ threadIdx blockIdx blockDim gridDim warpSize half "
    "half2 __half __half2 __nv_bfloat16 __nv_bfloat162 uint4 float4 int4 asm volatile";

class CudaLexer : public QsciLexerCPP {
public:
    using QsciLexerCPP::QsciLexerCPP;
    const char* keywords(int set) const override {
        if (set == 2) return kCudaWords;
        return QsciLexerCPP::keywords(set);
    }
};

}  // namespace

CodeView::CodeView(Language lang, QWidget* parent) : QsciScintilla(parent) {
    if (lang == Language::Python)
        m_lexer = new QsciLexerPython(this);
    else if (lang == Language::Cpp)
        m_lexer = new CudaLexer(this);
    if (m_lexer) setLexer(m_lexer);
    setReadOnly(true);
    setUtf8(true);
    setCaretLineVisible(true);
    setMarginType(0, NumberMargin);
    setMarginLineNumbers(0, true);
    setMarginWidth(1, 0);
    setFolding(NoFoldStyle);
    setWrapMode(WrapNone);
    setTabWidth(4);
    setIndentationGuides(true);
    SendScintilla(SCI_SETHSCROLLBAR, 1);
    SendScintilla(SCI_SETSCROLLWIDTHTRACKING, 1);
    SendScintilla(SCI_SETSCROLLWIDTH, 1);
    markerDefine(Background, kHighlightMarker);
    applyTheme();
    connect(&ThemeManager::instance(), &ThemeManager::themeChanged, this, &CodeView::applyTheme);
    connect(this, &QsciScintilla::cursorPositionChanged, this, [this](int line, int) {
        if (!m_updating) emit lineClicked(line);
    });
}

void CodeView::applyTheme() {
    auto& tm = ThemeManager::instance();
    if (m_lexer) tm.styleLexer(m_lexer);
    tm.styleView(this);
    setMarkerBackgroundColor(theme().crossHighlight, kHighlightMarker);
    updateLineNumberMargin();
}

void CodeView::updateLineNumberMargin() {
    setMarginWidth(
        0, QString(" %1 ").arg(QString(QString::number(std::max(lines(), 100)).size(), '9')));
}

void CodeView::setCode(const QString& code, bool keepScroll) {
    if (code == text()) return;
    m_updating = true;
    int first = firstVisibleLine();
    int caretLine = 0, caretIndex = 0;
    getCursorPosition(&caretLine, &caretIndex);
    setText(code);
    updateLineNumberMargin();
    if (keepScroll) {
        setCursorPosition(std::min(caretLine, std::max(0, lines() - 1)), 0);
        setFirstVisibleLine(first);
    }
    // Replacing the text can leave line 0's marker behind: start from none.
    markerDeleteAll(kHighlightMarker);
    m_highlighted.clear();
    m_updating = false;
}

void CodeView::setHighlightedLines(const std::vector<int>& ls, bool reveal) {
    std::vector<int> valid;
    for (int l : ls)
        if (l >= 0 && l < lines()) valid.push_back(l);
    // Typing moves the editor's caret on every key, and every move re-sends the focus: touching
    // the markers when the lines did not change would repaint the whole view each time
    // (bench/ide/IdeLatencyBench.cpp measured these repaints as the UI thread's largest cost).
    if (valid != m_highlighted) {
        markerDeleteAll(kHighlightMarker);
        for (int l : valid) markerAdd(l, kHighlightMarker);
        m_highlighted = std::move(valid);
    }
    if (reveal && !m_highlighted.empty()) {
        int first = firstVisibleLine();
        int visible = int(SendScintilla(SCI_LINESONSCREEN));
        int target = m_highlighted.front();
        if (target < first || target >= first + visible)
            setFirstVisibleLine(std::max(0, target - visible / 3));
    }
}

}  // namespace ts::gui
