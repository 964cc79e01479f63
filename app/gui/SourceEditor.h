// The tile-program editor (QScintilla): Python lexer with `T.*` names coloured from the language
// registry (compiler/frontend/LanguageRegistry.h), autocompletion and call tips from the same
// registry, diagnostics of the latest compile as squiggles + margin markers + hover text + an
// inline note under the line, and cross-highlighting of the source lines the IR or the generated
// code points at. It is bound to a Session: edits go to the session (which recompiles on a
// debounce) and the session's pragma rewrites come back as minimal edits, so undo keeps working.
#pragma once
#include <vector>

#include <Qsci/qsciscintilla.h>
#include <Qsci/qscistyle.h>

#include "compiler/support/Diagnostic.h"

class QsciLexerPython;
class QsciAPIs;
class QTimer;

namespace ts::gui {

class Session;

class SourceEditor : public QsciScintilla {
    Q_OBJECT
public:
    explicit SourceEditor(Session& session, QWidget* parent = nullptr);

    /// Shows `diags` (replacing earlier ones).
    void setDiagnostics(const std::vector<Diagnostic>& diags);
    const std::vector<Diagnostic>& diagnostics() const { return m_diags; }
    /// 0-based lines that carry an error/warning marker now (tests).
    std::vector<int> markedLines() const;
    /// The hover text for byte position `pos` (empty if no diagnostic is there).
    QString diagnosticTextAt(int pos) const;
    /// Inline notes (annotations) under diagnostic lines on/off.
    void setInlineDiagnostics(bool on);
    /// Moves the caret to 1-based line/col and centres it.
    void goTo(int line, int col = 1);
    /// Byte position of 1-based line/col.
    long positionOf(uint32_t line, uint32_t col) const;
    void applyTheme();

protected:
    /// Enter with the completion list open accepts the entry only when it would add text: on a
    /// word that is already complete (the list's entry is that word) it closes the list and
    /// inserts the newline the user meant (issue 15: `import tilelang⏎` used to append).
    void keyPressEvent(QKeyEvent* e) override;

private:
    /// True when the completion list's current entry adds nothing to the word before the caret.
    bool completionWouldAddNothing();
    void onTextChanged();
    void onSessionTextReplaced(const QString& text);
    void onResult();
    void onFocusChanged();
    void onDwell(int position, int x, int y);
    void highlightTNames();
    void setupCompletion();

    Session& m_session;
    QsciLexerPython* m_lexer = nullptr;
    QsciAPIs* m_apis = nullptr;
    std::vector<Diagnostic> m_diags;
    bool m_applyingSession = false;
    bool m_inlineDiagnostics = true;
    QTimer* m_tnameTimer = nullptr;

    static constexpr int kIndTName = 8, kIndError = 9, kIndWarning = 10;
    static constexpr int kMarkError = 1, kMarkWarning = 2, kMarkFocus = 3;
    QsciStyle m_annotError, m_annotWarning;  ///< styles of the inline notes
};

}  // namespace ts::gui
