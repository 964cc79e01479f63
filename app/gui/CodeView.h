// A read-only code view (QScintilla) for the IR of a pass and the generated CUDA: line numbers,
// a syntax lexer, cross-highlight bands on chosen lines, and a lineClicked signal when the user
// puts the caret on a line. It keeps its scroll position when its text is replaced by a similar
// text (switching passes), so the eye stays on the same region.
#pragma once
#include <vector>

#include <Qsci/qsciscintilla.h>

class QsciLexer;

namespace ts::gui {

class CodeView : public QsciScintilla {
    Q_OBJECT
public:
    enum class Language { Python, Cpp, Plain };
    explicit CodeView(Language lang, QWidget* parent = nullptr);

    /// Replaces the text; keeps the first visible line when `keepScroll`.
    void setCode(const QString& text, bool keepScroll = true);
    /// Paints cross-highlight bands on these 0-based lines (replacing earlier ones); scrolls the
    /// first into view when it is off screen and `reveal`.
    void setHighlightedLines(const std::vector<int>& lines, bool reveal);
    const std::vector<int>& highlightedLines() const { return m_highlighted; }
    /// Re-applies theme colours (connected to ThemeManager::themeChanged).
    void applyTheme();

signals:
    /// The user put the caret on 0-based `line` (click or keys), not a programmatic change.
    void lineClicked(int line);

protected:
    void updateLineNumberMargin();

private:
    QsciLexer* m_lexer = nullptr;
    std::vector<int> m_highlighted;
    bool m_updating = false;
    static constexpr int kHighlightMarker = 20;
};

}  // namespace ts::gui
