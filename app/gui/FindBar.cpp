// Editor find bar (FindBar.h).
#include "app/gui/FindBar.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

#include <Qsci/qsciscintilla.h>

namespace ts::gui {

FindBar::FindBar(QsciScintilla* editor, QWidget* parent) : QWidget(parent), m_editor(editor) {
    m_input = new QLineEdit(this);
    m_input->setPlaceholderText(tr("Find"));
    m_input->setClearButtonEnabled(true);
    m_case = new QCheckBox(tr("Aa"), this);
    m_case->setToolTip(tr("Match case"));
    m_word = new QCheckBox(tr("Word"), this);
    m_word->setToolTip(tr("Whole words"));
    m_regex = new QCheckBox(tr(".*"), this);
    m_regex->setToolTip(tr("Regular expression"));
    auto* prev = new QToolButton(this);
    prev->setArrowType(Qt::UpArrow);
    prev->setAutoRaise(true);
    prev->setToolTip(tr("Previous match (Shift+F3)"));
    auto* next = new QToolButton(this);
    next->setArrowType(Qt::DownArrow);
    next->setAutoRaise(true);
    next->setToolTip(tr("Next match (F3)"));
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Close (Esc)"));
    m_state = new QLabel(this);
    auto* lay = new QHBoxLayout(this);
    lay->setContentsMargins(4, 2, 4, 2);
    lay->addWidget(m_input, 1);
    lay->addWidget(m_case);
    lay->addWidget(m_word);
    lay->addWidget(m_regex);
    lay->addWidget(prev);
    lay->addWidget(next);
    lay->addWidget(m_state);
    lay->addWidget(close);
    connect(m_input, &QLineEdit::returnPressed, this, [this] { find(true); });
    connect(m_input, &QLineEdit::textEdited, this, [this] {
        // Incremental: search again from the start of the current selection.
        int line, index, l2, i2;
        m_editor->getSelection(&line, &index, &l2, &i2);
        if (line >= 0) m_editor->setCursorPosition(line, index);
        find(true);
    });
    connect(next, &QToolButton::clicked, this, [this] { find(true); });
    connect(prev, &QToolButton::clicked, this, [this] { find(false); });
    connect(close, &QToolButton::clicked, this, [this] {
        hide();
        m_editor->setFocus();
    });
}

void FindBar::activate() {
    if (m_editor->hasSelectedText() && !m_editor->selectedText().contains('\n'))
        m_input->setText(m_editor->selectedText());
    show();
    m_input->setFocus();
    m_input->selectAll();
}

bool FindBar::find(bool forward) {
    const QString text = m_input->text();
    if (text.isEmpty()) {
        m_state->clear();
        return false;
    }
    int line = -1, index = -1;
    if (!forward && m_editor->hasSelectedText()) {
        // Backward search starts before the current match, not inside it.
        int l2, i2;
        m_editor->getSelection(&line, &index, &l2, &i2);
    }
    bool ok = m_editor->findFirst(text, m_regex->isChecked(), m_case->isChecked(),
                                  m_word->isChecked(), /*wrap=*/true, forward, line, index,
                                  /*show=*/true, /*posix=*/false, /*cxx11=*/true);
    m_state->setText(ok ? QString() : tr("No match"));
    QPalette p = m_input->palette();
    p.setColor(QPalette::Base, ok ? palette().color(QPalette::Base) : QColor("#f8d7da"));
    p.setColor(QPalette::Text, ok ? palette().color(QPalette::Text) : QColor("#1f2328"));
    m_input->setPalette(p);
    return ok;
}

void FindBar::keyPressEvent(QKeyEvent* e) {
    if (e->key() == Qt::Key_Escape) {
        hide();
        m_editor->setFocus();
        return;
    }
    QWidget::keyPressEvent(e);
}

}  // namespace ts::gui
