// A sweep defined in the IDE (issue 12 item 4): values per parameter typed in the Compare panel
// ("block_M=64,128 num_stages=2,3"), run as `tilec tune --sweep ...` on the editor's text in a
// child process, like Run (a faulting variant ends only tilec's worker, never the IDE). The
// variants land in the results store, where the Compare panel shows the new session.
#pragma once
#include <QString>
#include <QStringList>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ts::gui {

/// One axis of a sweep: a parameter and its values in order.
struct SweepAxis {
    QString name;
    QStringList values;
};

/// Parses "NAME=V1,V2 NAME2=V3" (axes separated by spaces or ';', values by ','). Nullopt with
/// `error` set for an axis without '=', an empty name or no values, or a name given twice.
std::optional<std::vector<SweepAxis>> parseSweep(const QString& text, QString* error);

/// The tilec command line: `tune FILE [pragma flags] --sweep NAME=V1,V2 ... [--interp]`. Pragma
/// parameters that the sweep varies are left out (the sweep sets them).
QStringList tilecTuneArguments(const QString& file, const std::map<std::string, std::string>& params,
                               const std::vector<SweepAxis>& sweep, bool interp);

}  // namespace ts::gui
