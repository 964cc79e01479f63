// A wrapping toolbar row (FlowLayout.h).
#include "app/gui/FlowLayout.h"

#include <QHBoxLayout>
#include <QSpacerItem>
#include <QWidget>
#include <algorithm>

namespace ts::gui {

namespace {
/// addStretch() marker: an expanding spacer with no width of its own.
class StretchItem : public QSpacerItem {
public:
    StretchItem() : QSpacerItem(0, 0, QSizePolicy::Expanding, QSizePolicy::Minimum) {}
};

bool expands(QLayoutItem* it) {
    if (dynamic_cast<StretchItem*>(it)) return false;  // handled as alignment, not growth
    if (QWidget* w = it->widget())
        return w->sizePolicy().horizontalPolicy() & QSizePolicy::ExpandFlag;
    return false;
}
}  // namespace

FlowLayout::FlowLayout(QWidget* parent, int hSpacing, int vSpacing)
    : QLayout(parent), m_hSpace(hSpacing), m_vSpace(vSpacing) {
    setContentsMargins(0, 0, 0, 0);
}

FlowLayout::~FlowLayout() {
    while (QLayoutItem* it = takeAt(0)) delete it;
}

void FlowLayout::addStretch() { addItem(new StretchItem); }

QWidget* FlowLayout::addGroup(std::initializer_list<QWidget*> widgets, bool expanding) {
    auto* box = new QWidget(parentWidget());
    auto* h = new QHBoxLayout(box);
    h->setContentsMargins(0, 0, 0, 0);
    h->setSpacing(m_hSpace);
    for (QWidget* w : widgets) {
        const bool grows = w->sizePolicy().horizontalPolicy() & QSizePolicy::ExpandFlag;
        h->addWidget(w, grows ? 1 : 0);
    }
    box->setSizePolicy(expanding ? QSizePolicy::Expanding : QSizePolicy::Preferred,
                       QSizePolicy::Fixed);
    addWidget(box);
    return box;
}

void FlowLayout::addSpacing(int px) {
    addItem(new QSpacerItem(px, 0, QSizePolicy::Fixed, QSizePolicy::Minimum));
}

void FlowLayout::addItem(QLayoutItem* item) {
    m_items.append(item);
    invalidate();
}

QLayoutItem* FlowLayout::takeAt(int i) {
    if (i < 0 || i >= m_items.size()) return nullptr;
    QLayoutItem* it = m_items.takeAt(i);
    invalidate();
    return it;
}

int FlowLayout::heightForWidth(int width) const { return doLayout(QRect(0, 0, width, 0), false); }

QSize FlowLayout::minimumSize() const {
    QSize s;
    for (QLayoutItem* it : m_items)
        if (!it->isEmpty()) s = s.expandedTo(it->minimumSize());
    const QMargins m = contentsMargins();
    return s + QSize(m.left() + m.right(), m.top() + m.bottom());
}

QSize FlowLayout::sizeHint() const {
    int w = 0, h = 0, n = 0;
    for (QLayoutItem* it : m_items) {
        if (it->isEmpty()) continue;
        const QSize s = it->sizeHint();
        w += s.width() + (n++ ? m_hSpace : 0);
        h = std::max(h, s.height());
    }
    const QMargins m = contentsMargins();
    return {w + m.left() + m.right(), h + m.top() + m.bottom()};
}

void FlowLayout::setGeometry(const QRect& rect) {
    QLayout::setGeometry(rect);
    doLayout(rect, true);
}

int FlowLayout::doLayout(const QRect& rect, bool apply) const {
    const QRect area = rect.marginsRemoved(contentsMargins());
    const int right = area.x() + std::max(area.width(), 1);
    int y = area.y();
    QList<QLayoutItem*> line;
    auto flush = [&](QList<QLayoutItem*>& items) {
        if (items.isEmpty()) return;
        int used = 0, height = 0, growers = 0, stretch = -1;
        // A fixed spacer that would start a wrapped line would only indent it.
        while (!items.isEmpty() && !items.front()->widget() &&
               !dynamic_cast<StretchItem*>(items.front()) &&
               items.front()->sizeHint().width() > 0 && items.size() > 1 && y > area.y())
            items.removeFirst();
        for (int i = 0; i < items.size(); ++i) {
            const QSize s = items[i]->sizeHint();
            used += (i ? m_hSpace : 0) + s.width();
            height = std::max(height, s.height());
            growers += expands(items[i]);
            if (stretch < 0 && dynamic_cast<StretchItem*>(items[i])) stretch = i;
        }
        if (apply) {
            const int spare = std::max(0, area.width() - used);
            int x = area.x(), left = spare;
            for (int i = 0; i < items.size(); ++i) {
                QLayoutItem* it = items[i];
                int w = std::min(it->sizeHint().width(), area.width());
                w = std::max(w, std::min(it->minimumSize().width(), area.width()));
                if (growers && expands(it)) {
                    const int add = --growers ? spare / (growers + 1) : left;  // last takes the rest
                    w += std::min(add, left);
                    left -= std::min(add, left);
                }
                if (!growers && i == stretch) x += spare;  // right-align what follows
                const int h = std::min(it->sizeHint().height(), height);
                it->setGeometry(QRect(x, y + (height - h) / 2, w, h));
                x += w + m_hSpace;
            }
        }
        y += height + m_vSpace;
        items.clear();
    };
    int x = area.x();
    for (QLayoutItem* it : m_items) {
        if (it->isEmpty()) continue;
        const int w = it->sizeHint().width();
        if (!line.isEmpty() && x + w > right) {
            flush(line);
            x = area.x();
        }
        line.append(it);
        x += w + m_hSpace;
    }
    flush(line);
    const QMargins m = contentsMargins();
    return (y == area.y() ? 0 : y - m_vSpace - area.y()) + m.top() + m.bottom();
}

}  // namespace ts::gui
