// Light and dark themes: the Qt palette (Fusion style) and the colours of every code view
// (editor, IR, generated code, diff). One ThemeManager instance owns the current theme and
// announces changes; code views re-apply their colours when it does.
#pragma once
#include <QColor>
#include <QFont>
#include <QObject>
#include <QString>

class QsciScintilla;
class QsciLexer;

namespace ts::viz {
class DiffView;
}

namespace ts::gui {

/// Colours of code views and of the highlights the IDE paints.
struct Theme {
    QString name;  ///< "light" | "dark"
    bool dark = false;
    QColor paper, text, margin, marginText, caretLine, selection, caret;
    QColor comment, keyword, string, number, identifier, tname, op, decorator, preproc;
    QColor crossHighlight;            ///< lines picked by cross-highlighting
    QColor diffAddLine, diffAddText;  ///< inserted lines / intra-line ranges
    QColor diffDelLine, diffDelText;  ///< deleted lines / intra-line ranges
    QColor diffFiller;                ///< side-by-side filler rows
    QColor error, warning, note;      ///< squiggles and markers
    QColor accent;                    ///< changed-pass dot, links
    QColor success;                   ///< PASS, added-line counts
    QColor dim;                       ///< secondary text (unchanged passes)
};

class ThemeManager : public QObject {
    Q_OBJECT
public:
    static ThemeManager& instance();
    const Theme& theme() const { return m_theme; }
    /// Switches to "light" or "dark": application palette + style sheet, then themeChanged().
    void setTheme(const QString& name);
    /// The monospace font of code views.
    QFont codeFont() const;
    /// Applies the paper/margin/caret colours and the font to a code view (not the lexer).
    void styleView(QsciScintilla* view) const;
    /// Colours a Python or C++ lexer's styles.
    void styleLexer(QsciLexer* lexer) const;

signals:
    void themeChanged();

private:
    ThemeManager();
    Theme m_theme;
};

/// Applies the theme to a diff view: its three code views (paper, margins, font, lexer colours
/// when it has a lexer) and its added/deleted line colours. Call again on themeChanged().
void styleDiffView(viz::DiffView* d);

/// Shortcut for ThemeManager::instance().theme().
inline const Theme& theme() { return ThemeManager::instance().theme(); }

}  // namespace ts::gui
