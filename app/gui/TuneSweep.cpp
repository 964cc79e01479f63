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
