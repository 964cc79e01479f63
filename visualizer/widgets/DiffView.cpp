// Side-by-side and unified rendering of a TextDiff (DiffView.h).
#include "visualizer/widgets/DiffView.h"

#include <QScrollBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <Qsci/qsciscintilla.h>

namespace ts::viz {
namespace {

// Marker and indicator numbers (below QScintilla's folding markers 25..31).
constexpr int kMarkAdd = 10, kMarkDel = 11, kMarkFiller = 12;
constexpr int kIndAdd = 12, kIndDel = 13;

}  // namespace

DiffView::DiffView(QWidget* parent) : QWidget(parent) {
    m_left = new QsciScintilla;
    m_right = new QsciScintilla;
    m_unified = new QsciScintilla;
    setupView(m_left, 5);
    setupView(m_right, 5);
    setupView(m_unified, 11);
    m_split = new QSplitter(Qt::Horizontal);
    m_split->addWidget(m_left);
    m_split->addWidget(m_right);
    m_split->setChildrenCollapsible(false);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_split);
    m_stack->addWidget(m_unified);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(m_stack);

    // The sides have the same number of rows (fillers), so scroll positions map 1:1.
    auto sync = [this](QsciScintilla* from, QsciScintilla* to) {
        connect(from->verticalScrollBar(), &QScrollBar::valueChanged, this, [this, to](int v) {
            if (m_syncing) return;
            m_syncing = true;
            to->verticalScrollBar()->setValue(v);
            m_syncing = false;
        });
        connect(from->horizontalScrollBar(), &QScrollBar::valueChanged, this, [this, to](int v) {
            if (m_syncing) return;
            m_syncing = true;
            to->horizontalScrollBar()->setValue(v);
            m_syncing = false;
        });
    };
    sync(m_left, m_right);
    sync(m_right, m_left);

    auto clicks = [this](QsciScintilla* v, int side) {
        connect(v, &QsciScintilla::cursorPositionChanged, this, [this, side](int line, int) {
            if (m_syncing) return;
            if (side == 2) {
                if (line < int(m_unifiedLines.size())) {
                    const UnifiedLine& u = m_unifiedLines[line];
                    if (u.op == EditOp::Delete)
                        emit lineClicked(u.line, -1);
                    else
                        emit lineClicked(-1, u.line);
                }
            } else if (line < int(m_diff.rows.size())) {
                const DiffRow& r = m_diff.rows[line];
                emit lineClicked(r.oldLine, r.newLine);
            }
        });
    };
    clicks(m_left, 0);
    clicks(m_right, 1);
    clicks(m_unified, 2);
    setColors(m_colors);
}

void DiffView::setupView(QsciScintilla* v, int marginChars) {
    v->setReadOnly(true);
    v->setUtf8(true);
    v->setMarginType(0, QsciScintilla::TextMarginRightJustified);
    v->setMarginWidth(0, QString(marginChars, '9') + " ");
    v->setMarginWidth(1, 0);
    v->setFolding(QsciScintilla::NoFoldStyle);
    v->setWrapMode(QsciScintilla::WrapNone);
    v->setCaretLineVisible(false);
    v->SendScintilla(QsciScintilla::SCI_SETSCROLLWIDTHTRACKING, 1);
    v->SendScintilla(QsciScintilla::SCI_SETSCROLLWIDTH, 1);
    v->markerDefine(QsciScintilla::Background, kMarkAdd);
    v->markerDefine(QsciScintilla::Background, kMarkDel);
    v->markerDefine(QsciScintilla::Background, kMarkFiller);
    for (int ind : {kIndAdd, kIndDel}) {
        v->indicatorDefine(QsciScintilla::StraightBoxIndicator, ind);
        v->setIndicatorDrawUnder(true, ind);
        v->SendScintilla(QsciScintilla::SCI_INDICSETALPHA, ind, 255);
        v->SendScintilla(QsciScintilla::SCI_INDICSETOUTLINEALPHA, ind, 255);
    }
}

void DiffView::setColors(const Colors& c) {
    m_colors = c;
    for (QsciScintilla* v : {m_left, m_right, m_unified}) {
        v->setMarkerBackgroundColor(c.addLine, kMarkAdd);
        v->setMarkerBackgroundColor(c.delLine, kMarkDel);
        v->setMarkerBackgroundColor(c.filler, kMarkFiller);
        v->setIndicatorForegroundColor(c.addText, kIndAdd);
        v->setIndicatorForegroundColor(c.delText, kIndDel);
    }
    render();
}

void DiffView::setDiff(TextDiff diff, const QString& oldTitle, const QString& newTitle) {
    m_diff = std::move(diff);
    m_left->setToolTip(oldTitle);
    m_right->setToolTip(newTitle);
    render();
}

void DiffView::setMode(Mode m) {
    if (m == m_mode) return;
    m_mode = m;
    m_stack->setCurrentIndex(m == Mode::SideBySide ? 0 : 1);
    render();
}

void DiffView::render() {
    m_syncing = true;
    if (m_mode == Mode::SideBySide)
        renderSideBySide();
    else
        renderUnified();
    m_syncing = false;
}

void DiffView::markRanges(QsciScintilla* v, int line, const std::vector<ByteRange>& ranges,
                          int ind) {
    long start = v->SendScintilla(QsciScintilla::SCI_POSITIONFROMLINE, long(line));
    v->SendScintilla(QsciScintilla::SCI_SETINDICATORCURRENT, ind);
    for (const ByteRange& r : ranges)
        v->SendScintilla(QsciScintilla::SCI_INDICATORFILLRANGE, start + long(r.begin),
                         long(r.end - r.begin));
}

void DiffView::renderSideBySide() {
    QStringList l, r;
    l.reserve(int(m_diff.rows.size()));
    r.reserve(int(m_diff.rows.size()));
    for (const DiffRow& row : m_diff.rows) {
        l << (row.oldLine >= 0 ? QString::fromStdString(m_diff.oldLines[row.oldLine]) : QString());
        r << (row.newLine >= 0 ? QString::fromStdString(m_diff.newLines[row.newLine]) : QString());
    }
    int topL = m_left->firstVisibleLine();
    for (QsciScintilla* v : {m_left, m_right}) {
        v->markerDeleteAll();
        v->clearMarginText();
    }
    m_left->setText(l.join('\n'));
    m_right->setText(r.join('\n'));
    for (size_t i = 0; i < m_diff.rows.size(); ++i) {
        const DiffRow& row = m_diff.rows[i];
        int line = int(i);
        if (row.oldLine >= 0) m_left->setMarginText(line, QString::number(row.oldLine + 1), 0);
        if (row.newLine >= 0) m_right->setMarginText(line, QString::number(row.newLine + 1), 0);
        switch (row.kind) {
            case RowKind::Equal:
                break;
            case RowKind::Deleted:
                m_left->markerAdd(line, kMarkDel);
                m_right->markerAdd(line, kMarkFiller);
                break;
            case RowKind::Inserted:
                m_left->markerAdd(line, kMarkFiller);
                m_right->markerAdd(line, kMarkAdd);
                break;
            case RowKind::Changed:
                m_left->markerAdd(line, kMarkDel);
                m_right->markerAdd(line, kMarkAdd);
                markRanges(m_left, line, row.oldRanges, kIndDel);
                markRanges(m_right, line, row.newRanges, kIndAdd);
                break;
        }
    }
    m_left->setFirstVisibleLine(topL);
    m_right->setFirstVisibleLine(topL);
}

void DiffView::renderUnified() {
    m_unifiedLines = m_diff.unified();
    QStringList text;
    text.reserve(int(m_unifiedLines.size()));
    for (const UnifiedLine& u : m_unifiedLines)
        text << QString::fromStdString(u.op == EditOp::Delete ? m_diff.oldLines[u.line]
                                                              : m_diff.newLines[u.line]);
    int top = m_unified->firstVisibleLine();
    m_unified->markerDeleteAll();
    m_unified->clearMarginText();
    m_unified->setText(text.join('\n'));
    // Margin: old and new line numbers, then the +/- sign, like `diff -u` with numbers.
    std::vector<int> oldOfNew(m_diff.newLines.size(), -1);
    for (const DiffRow& row : m_diff.rows)
        if (row.kind == RowKind::Equal) oldOfNew[row.newLine] = row.oldLine;
    for (size_t i = 0; i < m_unifiedLines.size(); ++i) {
        const UnifiedLine& u = m_unifiedLines[i];
        int line = int(i);
        QString margin;
        if (u.op == EditOp::Equal)
            margin = QString("%1 %2  ").arg(oldOfNew[u.line] + 1, 4).arg(u.line + 1, 4);
        else if (u.op == EditOp::Delete)
            margin = QString("%1 %2 -").arg(u.line + 1, 4).arg("", 4);
        else
            margin = QString("%1 %2 +").arg("", 4).arg(u.line + 1, 4);
        m_unified->setMarginText(line, margin, 0);
        if (u.op == EditOp::Delete) {
            m_unified->markerAdd(line, kMarkDel);
            markRanges(m_unified, line, u.ranges, kIndDel);
        } else if (u.op == EditOp::Insert) {
            m_unified->markerAdd(line, kMarkAdd);
            markRanges(m_unified, line, u.ranges, kIndAdd);
        }
    }
    m_unified->setFirstVisibleLine(top);
}

QString DiffView::unifiedText() const {
    QStringList out;
    for (const UnifiedLine& u : m_diff.unified()) {
        const char* sign = u.op == EditOp::Equal ? " " : u.op == EditOp::Delete ? "-" : "+";
        out << QString(sign) + QString::fromStdString(u.op == EditOp::Delete
                                                          ? m_diff.oldLines[u.line]
                                                          : m_diff.newLines[u.line]);
    }
    return out.join('\n');
}

void DiffView::gotoHunk(int dir) {
    QsciScintilla* v = m_mode == Mode::SideBySide ? m_right : m_unified;
    std::vector<int> starts;
    if (m_mode == Mode::SideBySide) {
        starts = m_diff.hunkStarts();
    } else {
        for (size_t i = 0; i < m_unifiedLines.size(); ++i)
            if (m_unifiedLines[i].op != EditOp::Equal &&
                (i == 0 || m_unifiedLines[i - 1].op == EditOp::Equal))
                starts.push_back(int(i));
    }
    if (starts.empty()) return;
    int top = v->firstVisibleLine() + 3;  // hunks are shown 3 lines below the top
    int target = -1;
    if (dir > 0) {
        for (int s : starts)
            if (s > top) {
                target = s;
                break;
            }
        if (target < 0) target = starts.front();
    } else {
        for (auto it = starts.rbegin(); it != starts.rend(); ++it)
            if (*it < top) {
                target = *it;
                break;
            }
        if (target < 0) target = starts.back();
    }
    v->setFirstVisibleLine(std::max(0, target - 3));
}

}  // namespace ts::viz
