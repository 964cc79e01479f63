// The command palette (Ctrl+Shift+P): a popup listing every action of the main window with its
// menu path and shortcut, filtered as the user types (fuzzy: the typed letters in order, word
// starts scoring higher); Enter runs the best match. The ranking is a free function so it can be
// tested without a window.
#pragma once
#include <QDialog>
#include <QList>

class QAction;
class QLineEdit;
class QTreeWidget;

namespace ts::gui {

/// Fuzzy score of `pattern` against `text` (case-insensitive): -1 when the pattern's characters
/// do not all occur in order; otherwise higher is better (contiguous runs and word starts count).
int fuzzyScore(const QString& pattern, const QString& text);

class CommandPalette : public QDialog {
    Q_OBJECT
public:
    /// `actions`: the commands offered; their menu path (e.g. "File › Save") is read from the
    /// "paletteName" property when set, else from the action text.
    CommandPalette(const QList<QAction*>& actions, QWidget* parent = nullptr);
    /// Visible rows' labels in ranked order (tests).
    QStringList visibleLabels() const;
    QLineEdit* input() const { return m_input; }

protected:
    bool eventFilter(QObject* o, QEvent* e) override;

private:
    void refilter();
    void runCurrent();

    QList<QAction*> m_actions;
    QLineEdit* m_input;
    QTreeWidget* m_list;
};

}  // namespace ts::gui
