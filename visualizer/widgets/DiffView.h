// Paints a ts::viz::TextDiff (visualizer/core/LineDiff.h): side by side (two synchronised
// QScintilla views, filler rows keeping the sides aligned) or unified (one view, removed lines
// above added ones), with line bands for inserted/deleted/changed lines and stronger boxes on the
// changed bytes. It only paints the model and forwards clicks; the owner styles the two views
// (fonts, lexer) through left()/right()/unifiedView() and passes the diff colours.
#pragma once
#include <QColor>
#include <QWidget>

#include "visualizer/core/LineDiff.h"

class QsciScintilla;
class QSplitter;
class QStackedWidget;

namespace ts::viz {

class DiffView : public QWidget {
    Q_OBJECT
public:
    enum class Mode { SideBySide, Unified };
    /// Colours of the bands and boxes.
    struct Colors {
        QColor addLine{"#e6ffec"}, addText{"#abf2bc"}, delLine{"#ffebe9"}, delText{"#ffb3ad"};
        QColor filler{"#f0f1f3"}, marginText{"#8c959f"};
    };

    explicit DiffView(QWidget* parent = nullptr);

    /// Shows `diff` with titles for the two sides ("after simplify", "after lower-tile-ops").
    void setDiff(TextDiff diff, const QString& oldTitle, const QString& newTitle);
    const TextDiff& diff() const { return m_diff; }
    void setMode(Mode m);
    Mode mode() const { return m_mode; }
    void setColors(const Colors& c);
    /// Scrolls to the next (dir=+1) / previous (dir=-1) hunk after the current top line.
    void gotoHunk(int dir);

    QsciScintilla* left() const { return m_left; }
    QsciScintilla* right() const { return m_right; }
    QsciScintilla* unifiedView() const { return m_unified; }
    /// Text of the unified view (tests).
    QString unifiedText() const;

signals:
    /// The user clicked a row showing 0-based line `newLine` of the new text (or -1 for a
    /// removed line, with `oldLine` set).
    void lineClicked(int oldLine, int newLine);

private:
    void render();
    void renderSideBySide();
    void renderUnified();
    void setupView(QsciScintilla* v, int marginChars);
    void markRanges(QsciScintilla* v, int line, const std::vector<ByteRange>& ranges, int ind);

    TextDiff m_diff;
    Mode m_mode = Mode::SideBySide;
    Colors m_colors;
    QStackedWidget* m_stack;
    QSplitter* m_split;
    QsciScintilla *m_left, *m_right, *m_unified;
    std::vector<int> m_rowOfUnifiedLine;  ///< unified view line -> index into m_diff.unified()
    std::vector<UnifiedLine> m_unifiedLines;
    bool m_syncing = false;
};

}  // namespace ts::viz
