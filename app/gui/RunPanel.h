// The Run panel (issue 3 item 7): a target picker (detected GPUs, `cpu-interpreter`), a Run button
// (F5), and the outcome of the last run — correctness against the reference and time — or the
// failure message. Running goes through the same façade tilec uses, off the UI thread.
#pragma once
#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace ts::gui {

class Session;

class RunPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunPanel(Session& session, QWidget* parent = nullptr);
    /// Starts a run of the current result on the chosen target.
    void run();

private:
    Session& m_session;
    QComboBox* m_target;
    QPushButton* m_runButton;
    QLabel* m_status;
    QPlainTextEdit* m_log;
};

}  // namespace ts::gui
