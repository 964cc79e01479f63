// Horizontal bars of one metric per variant for the compare view (issue 12): painted with
// QPainter rather than QtCharts, which Debian 12's Qt 6 installs do not carry by default and the
// GPU box does not need. One bar per entry, the best one in the highlight colour, missing values
// (failed variants) as a grey "failed" label. It only paints; clicks select an entry.
#pragma once
#include <QColor>
#include <QString>
#include <QVector>
#include <QWidget>

namespace ts::viz {

class BarChartWidget : public QWidget {
    Q_OBJECT
public:
    struct Bar {
        QString label;
        double value = 0;
        bool missing = false;  ///< failed variant: no bar, the reason text instead
        QString note;          ///< "wrong_result", ... for missing bars
    };
    explicit BarChartWidget(QWidget* parent = nullptr);
    /// Shows `bars` titled `title`; `best` (index or -1) is highlighted; values are formatted
    /// with `unit` suffix.
    void setBars(QVector<Bar> bars, const QString& title, int best, const QString& unit);
    const QVector<Bar>& bars() const { return m_bars; }
    int best() const { return m_best; }
    QSize sizeHint() const override;

signals:
    void barClicked(int index);

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;

private:
    int rowHeight() const;
    QVector<Bar> m_bars;
    QString m_title, m_unit;
    int m_best = -1;
};

}  // namespace ts::viz
