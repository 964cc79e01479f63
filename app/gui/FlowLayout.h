// A toolbar row that wraps (issue 15, narrow windows): widgets are placed left to right at their
// size hints and continue on the next line when the row is too narrow, so a panel's buttons never
// set the width of its dock (and with the docks, the window's minimum: ~1740 px before). Its
// sizeHint is the one-line row, its minimumSize the widest single item; widgets whose horizontal
// size policy expands (line edits, or setSizePolicy(Expanding, ...)) share a line's spare width;
// addStretch() right-aligns the widgets after it on their line. Height-for-width, so the
// QVBoxLayout of a panel gives a wrapped row the lines it needs.
#pragma once
#include <QLayout>
#include <QList>
#include <initializer_list>

namespace ts::gui {

class FlowLayout : public QLayout {
public:
    explicit FlowLayout(QWidget* parent = nullptr, int hSpacing = 4, int vSpacing = 2);
    ~FlowLayout() override;

    /// Everything after this on the same line is pushed to the line's right end.
    void addStretch();
    /// Widgets that stay together on one line (a label and its field); `expanding`: the group
    /// takes a share of the line's spare width. Returns the group's container.
    QWidget* addGroup(std::initializer_list<QWidget*> widgets, bool expanding = false);
    void addSpacing(int px);

    void addItem(QLayoutItem* item) override;
    int count() const override { return int(m_items.size()); }
    QLayoutItem* itemAt(int i) const override { return m_items.value(i); }
    QLayoutItem* takeAt(int i) override;
    Qt::Orientations expandingDirections() const override { return Qt::Horizontal; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

private:
    /// Lays the items out in `rect` (or only measures); returns the height used.
    int doLayout(const QRect& rect, bool apply) const;
    QList<QLayoutItem*> m_items;
    int m_hSpace, m_vSpace;
};

}  // namespace ts::gui
