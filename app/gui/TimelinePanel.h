// The Timeline panel (issue 9): the compiler's static pipeline plan of the shown result
// (TimelineData.h -> viz::TimelineModel) drawn by viz::TimelineWidget — per warp role a row of
// events per iteration (copy issue, barrier wait, mma, release ...), the stage occupancy below,
// and, when the user loads a `tilec trace` JSON, the measured warps on the same axis. Refreshes
// on every compile (off the UI thread, skipped while hidden), says when the result is stale, when
// the program does not compile, and when it has no pipeline. Clicking an event selects the pass
// the plan is read from and moves the editor to the event's source line (the IR and generated
// code views cross-highlight it from there).
#pragma once
#include <QWidget>
#include <optional>

#include "app/gui/PanelRegistry.h"
#include "app/gui/TimelineData.h"
#include "visualizer/core/MeasuredTrace.h"

class QComboBox;
class QLabel;
class QToolButton;

namespace ts::viz {
class TimelineWidget;
}

namespace ts::gui {

class Session;

class TimelinePanel : public QWidget, public LazyPanel {
    Q_OBJECT
public:
    explicit TimelinePanel(Session& session, QWidget* parent = nullptr);
    /// Loads a `tilec trace` output; false with `why` when it cannot be read or parsed.
    bool loadTrace(const QString& path, QString* why = nullptr);
    void clearTrace();
    viz::TimelineWidget* widget() const { return m_widget; }
    /// The line above the picture (summary, or why there is nothing to show).
    QString statusText() const;
    /// The warning about a loaded trace ("" when none or it matches the plan).
    QString traceWarning() const;
    /// The timeline shown (null before the first result arrived).
    TimelinePtr timeline() const { return m_timeline; }
    /// True while a timeline computation for the latest result is in flight.
    bool pending() const { return m_pending; }
    void setPanelShown(bool shown) override;

signals:
    /// A new timeline is shown (after every compile).
    void timelineShown();

private:
    void refresh();
    void apply(TimelinePtr t);
    void rebuildModel(bool fit);
    void onItemClicked(int row, int item);
    void promptLoadTrace();

    Session& m_session;
    viz::TimelineWidget* m_widget;
    QLabel *m_status, *m_warning, *m_legend, *m_traceInfo;
    QComboBox* m_loop;
    QToolButton *m_loadButton, *m_clearButton;
    TimelinePtr m_timeline;
    ResultPtr m_result;  ///< the result m_timeline belongs to
    std::optional<viz::MeasuredTrace> m_trace;
    QString m_tracePath;
    quint64 m_tag = 0;
    bool m_shown = true, m_stale = false, m_pending = false, m_resultIsStale = false;
};

}  // namespace ts::gui
