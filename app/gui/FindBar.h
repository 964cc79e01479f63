// The editor's find bar (Ctrl+F): a one-line strip under the editor with the search text, match
// case / regular expression / whole word toggles, next/previous (F3 / Shift+F3) and a "no match"
// state. It drives QScintilla's own search, so matches wrap and select like in any editor.
#pragma once
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QsciScintilla;

namespace ts::gui {

class FindBar : public QWidget {
    Q_OBJECT
public:
    explicit FindBar(QsciScintilla* editor, QWidget* parent = nullptr);
    /// Shows the bar with the editor's selection (if any) as the search text, focused.
    void activate();
    /// Searches forward (true) or backward; returns whether a match was found.
    bool find(bool forward);
    QLineEdit* input() const { return m_input; }

protected:
    void keyPressEvent(QKeyEvent* e) override;

private:
    QsciScintilla* m_editor;
    QLineEdit* m_input;
    QCheckBox *m_case, *m_regex, *m_word;
    QLabel* m_state;
};

}  // namespace ts::gui
