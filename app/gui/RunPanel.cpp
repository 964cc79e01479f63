// Run panel (RunPanel.h).
#include "app/gui/RunPanel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "app/gui/Session.h"
#include "app/gui/Theme.h"

namespace ts::gui {

RunPanel::RunPanel(Session& session, QWidget* parent) : QWidget(parent), m_session(session) {
    m_target = new QComboBox(this);
    m_target->addItem(tr("cpu-interpreter"), QStringLiteral("cpu-interpreter"));
    m_runButton = new QPushButton(tr("Run  (F5)"), this);
    m_status = new QLabel(tr("Not run yet"), this);
    m_log = new QPlainTextEdit(this);
    m_log->setReadOnly(true);
    m_log->setFont(ThemeManager::instance().codeFont());
    m_log->setPlaceholderText(tr("Run compiles the program, launches it on the chosen target with "
                                 "random inputs, and compares the outputs with ref_program."));
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Target"), this));
    top->addWidget(m_target);
    top->addWidget(m_runButton);
    top->addSpacing(12);
    top->addWidget(m_status, 1);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    lay->addLayout(top);
    lay->addWidget(m_log, 1);
    connect(m_runButton, &QPushButton::clicked, this, &RunPanel::run);
}

void RunPanel::run() {
    m_status->setText(tr("Running is not available in this build yet."));
}

}  // namespace ts::gui
