// Command palette (CommandPalette.h).
#include "app/gui/CommandPalette.h"

#include <QAction>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMenu>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace ts::gui {

int fuzzyScore(const QString& pattern, const QString& text) {
    if (pattern.isEmpty()) return 0;
    int score = 0, ti = 0, run = 0;
    for (QChar pc : pattern) {
        if (pc.isSpace()) continue;
        bool found = false;
        for (; ti < text.size(); ++ti) {
            if (text[ti].toLower() == pc.toLower()) {
                bool wordStart = ti == 0 || !text[ti - 1].isLetterOrNumber();
                score += 1 + (wordStart ? 8 : 0) + run * 4;
                ++run;
                ++ti;
                found = true;
                break;
            }
            run = 0;
        }
        if (!found) return -1;
    }
    // Prefer shorter labels for equal matches.
    return score * 100 - int(text.size());
}

namespace {
QString labelOf(QAction* a) {
    QString p = a->property("paletteName").toString();
    return p.isEmpty() ? QString(a->text()).remove('&') : p;
}
}  // namespace

CommandPalette::CommandPalette(const QList<QAction*>& actions, QWidget* parent)
    : QDialog(parent, Qt::Popup | Qt::FramelessWindowHint) {
    for (QAction* a : actions)
        if (a && !a->isSeparator() && !a->menu() && !a->text().isEmpty()) m_actions << a;
    m_input = new QLineEdit(this);
    m_input->setPlaceholderText(tr("Type a command"));
    m_input->installEventFilter(this);
    QFont f = m_input->font();
    f.setPointSize(f.pointSize() + 1);
    m_input->setFont(f);
    m_list = new QTreeWidget(this);
    m_list->setColumnCount(2);
    m_list->setHeaderHidden(true);
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_list->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(6, 6, 6, 6);
    lay->addWidget(m_input);
    lay->addWidget(m_list);
    resize(560, 380);
    connect(m_input, &QLineEdit::textChanged, this, &CommandPalette::refilter);
    connect(m_list, &QTreeWidget::itemActivated, this, [this] { runCurrent(); });
    refilter();
}

void CommandPalette::refilter() {
    const QString pattern = m_input->text();
    std::vector<std::pair<int, QAction*>> ranked;
    for (QAction* a : m_actions) {
        if (!a->isEnabled()) continue;
        int s = fuzzyScore(pattern, labelOf(a));
        if (s >= 0) ranked.push_back({s, a});
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& x, const auto& y) { return x.first > y.first; });
    if (pattern.isEmpty())
        std::stable_sort(ranked.begin(), ranked.end(), [](const auto& x, const auto& y) {
            return labelOf(x.second) < labelOf(y.second);
        });
    m_list->clear();
    for (const auto& [score, a] : ranked) {
        auto* item = new QTreeWidgetItem(m_list);
        item->setText(0, labelOf(a));
        item->setText(1, a->shortcut().toString(QKeySequence::NativeText));
        item->setForeground(1, palette().color(QPalette::PlaceholderText));
        item->setData(0, Qt::UserRole, QVariant::fromValue(static_cast<QObject*>(a)));
    }
    if (m_list->topLevelItemCount()) m_list->setCurrentItem(m_list->topLevelItem(0));
}

QStringList CommandPalette::visibleLabels() const {
    QStringList out;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) out << m_list->topLevelItem(i)->text(0);
    return out;
}

void CommandPalette::runCurrent() {
    QTreeWidgetItem* item = m_list->currentItem();
    if (!item) return;
    auto* a = qobject_cast<QAction*>(item->data(0, Qt::UserRole).value<QObject*>());
    accept();
    if (a) a->trigger();
}

bool CommandPalette::eventFilter(QObject* o, QEvent* e) {
    if (o == m_input && e->type() == QEvent::KeyPress) {
        auto* k = static_cast<QKeyEvent*>(e);
        int row = m_list->currentIndex().row();
        switch (k->key()) {
            case Qt::Key_Down:
                if (row + 1 < m_list->topLevelItemCount())
                    m_list->setCurrentItem(m_list->topLevelItem(row + 1));
                return true;
            case Qt::Key_Up:
                if (row > 0) m_list->setCurrentItem(m_list->topLevelItem(row - 1));
                return true;
            case Qt::Key_Return:
            case Qt::Key_Enter:
                runCurrent();
                return true;
            case Qt::Key_Escape:
                reject();
                return true;
        }
    }
    return QDialog::eventFilter(o, e);
}

}  // namespace ts::gui
