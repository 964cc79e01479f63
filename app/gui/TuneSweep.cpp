#include "app/gui/TuneSweep.h"

#include <QRegularExpression>

#include "app/gui/RunPanel.h"

namespace ts::gui {

std::optional<std::vector<SweepAxis>> parseSweep(const QString& text, QString* error) {
    std::vector<SweepAxis> axes;
    const QStringList tokens =
        text.split(QRegularExpression(QStringLiteral("[\\s;]+")), Qt::SkipEmptyParts);
    auto fail = [&](const QString& why) -> std::optional<std::vector<SweepAxis>> {
        if (error) *error = why;
        return std::nullopt;
    };
    if (tokens.isEmpty()) return fail(QObject::tr("Give values per parameter, e.g. block_M=64,128 num_stages=2,3"));
    for (const QString& t : tokens) {
        const int eq = t.indexOf('=');
        if (eq <= 0) return fail(QObject::tr("'%1': expected NAME=V1,V2,...").arg(t));
        SweepAxis a{t.left(eq), t.mid(eq + 1).split(',', Qt::SkipEmptyParts)};
        if (a.values.isEmpty()) return fail(QObject::tr("'%1' has no values").arg(a.name));
        for (const auto& b : axes)
            if (b.name == a.name) return fail(QObject::tr("'%1' is given twice").arg(a.name));
        axes.push_back(std::move(a));
    }
    return axes;
}

SweepProgress sweepProgress(const QString& log) {
    SweepProgress p;
    static const QRegularExpression head(QStringLiteral("^tuning .*: (\\d+) variants on "),
                                         QRegularExpression::MultilineOption);
    if (auto m = head.match(log); m.hasMatch()) p.total = m.captured(1).toInt();
    static const QRegularExpression line(
        QStringLiteral("^tune: variant (\\d+) of (\\d+) (.*?): (.*)$"),
        QRegularExpression::MultilineOption);
    for (auto it = line.globalMatch(log); it.hasNext();) {
        const auto m = it.next();
        p.total = m.captured(2).toInt();
        const QString what = m.captured(3);
        if (what == QLatin1String("running")) {
            p.current = m.captured(1).toInt();
            p.config = m.captured(4).trimmed();
            continue;
        }
        ++p.done;
        // "ok 12.3 ms" passed; "unchecked ...", "wrong_result", "fault", ... did not.
        if (what.startsWith(QLatin1String("ok"))) ++p.ok;
        if (m.captured(1).toInt() == p.current) p.current = 0, p.config.clear();
    }
    return p;
}

QString SweepProgress::text() const {
    if (current == 0 && done == 0)
        return total > 0 ? QObject::tr("compiling %1 variants").arg(total)
                         : QObject::tr("compiling");
    QString s = current > 0 ? QObject::tr("variant %1 of %2: %3").arg(current).arg(total).arg(config)
                            : QObject::tr("%1 of %2 variants done").arg(done).arg(total);
    if (current > 0 && done > 0)
        s += QObject::tr("  ·  %1 done: %2 ok, %3 failed").arg(done).arg(ok).arg(done - ok);
    else if (current == 0)
        s += QObject::tr(": %1 ok, %2 failed").arg(ok).arg(done - ok);
    return s;
}

QStringList tilecTuneArguments(const QString& file, const std::map<std::string, std::string>& params,
                               const std::vector<SweepAxis>& sweep, bool interp) {
    std::map<std::string, std::string> fixed = params;
    for (const auto& a : sweep) fixed.erase(a.name.toStdString());
    QStringList args{"tune", file};
    appendPragmaArguments(args, fixed);
    for (const auto& a : sweep) args << "--sweep" << a.name + "=" + a.values.join(',');
    if (interp) args << "--interp";
    return args;
}

}  // namespace ts::gui
