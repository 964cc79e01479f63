// Progress and cancel for a long tilec child process (issue 15: "progress on anything longer
// than 1 s: phase, elapsed time, cancel"), shared by the Run panel (tilec run) and the Compare
// panel's sweep (tilec tune): a row with a busy bar and "PHASE  ·  12.3 s  ·  Stop cancels",
// refreshed five times a second, and the one way both stop their child.
#pragma once
#include <QElapsedTimer>
#include <QWidget>
#include <functional>

class QLabel;
class QProcess;
class QProgressBar;
class QTimer;

namespace ts::gui {

class ProgressRow : public QWidget {
    Q_OBJECT
public:
    /// `phase` gives the current phase text ("checking on cpu-interpreter", "variant 2 of 4:
    /// block_M=128 …"); `busy` says whether the work still runs (the row hides itself when not).
    ProgressRow(std::function<QString()> phase, std::function<bool()> busy,
                QWidget* parent = nullptr);
    /// Restarts the clock and shows the row.
    void start();
    /// Refreshes the text now (also every 200 ms while busy); hides the row when not busy.
    void refresh();
    /// Seconds since start().
    double elapsedS() const { return m_clock.isValid() ? m_clock.elapsed() / 1000.0 : 0.0; }
    /// The shown text; empty while hidden (tests).
    QString text() const;

private:
    std::function<QString()> m_phase;
    std::function<bool()> m_busy;
    QElapsedTimer m_clock;
    QProgressBar* m_bar;
    QLabel* m_label;
    QTimer* m_timer;
};

/// Stops a running tilec child. `graceMs` 0: killed at once (Run: nothing to save). Otherwise
/// SIGINT first -- tilec tune then cancels the running variant and stores what ran (CmdTune.cpp)
/// -- and SIGKILL if it has not ended after `graceMs`; returns at once (the child's finished()
/// signal reports the end), so the IDE never blocks on it. No-op when not running.
void stopChild(QProcess& proc, int graceMs);

}  // namespace ts::gui
