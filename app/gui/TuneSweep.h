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

/// Where a running `tilec tune` is, from its output so far: the progress lines it prints with
/// TILEC_PROGRESS=1 ("tune: variant 2 of 4 running: block_M=128", "tune: variant 2 of 4 ok
/// 1534.2000 ms: block_M=128"; CmdTune.cpp). Pure; tested.
struct SweepProgress {
    int total = 0;     ///< variants in the sweep (0: not known yet)
    int current = 0;   ///< 1-based variant running now (0: none; compiling or between)
    QString config;    ///< its config ("block_M=128 num_stages=3")
    int done = 0, ok = 0;  ///< variants finished, and of those the ones that passed
    /// "variant 2 of 4: block_M=128  ·  1 done: 1 ok" / "compiling 4 variants".
    QString text() const;
};
SweepProgress sweepProgress(const QString& log);

}  // namespace ts::gui
