// Every run, bench, profile and tune variant, kept on disk (issue 12 "results store"): one JSON
// object per line in $TILESCOPE_RESULTS, else $XDG_DATA_HOME/tilescope/results.jsonl, else
// ~/.local/share/tilescope/results.jsonl. The program text of each record is kept once under
// sources/<source_hash>.py beside it, so a stored variant can be recompiled exactly (the compare
// view's per-pass IR and CUDA diffs) even after the file has changed.
//
// Why JSON lines and not SQLite: the store is written by tilec on the GPU box (no Qt there, and
// profiler/ must not use Qt's SQL driver), by several processes at once (the IDE, a tune in a
// terminal) -- one O_APPEND write per record under flock is safe for that -- a half-written last
// line after a crash costs only that line, and the bench scripts read it with plain Python.
//
// A record (all keys optional except id/kind/date):
//   id, kind ("run"|"bench"|"profile"|"tune"), date (UTC ISO-8601), file, source_hash,
//   kernel, program_kernel, params {name: value text}, target, compiler, device, driver,
//   status ("ok"|"wrong_result"|"compile_error"|"fault"|"timeout"|"crash"|"error"), reason,
//   check ("pass"|"fail"|"skipped"), time_ms (event median), metrics {key: number} (Profile.h
//   keys plus activity_ms, event_ms, tflops, gbps), resources {registers, local_bytes,
//   static_smem, dynamic_smem}, tune {session, index, config {name: value text}, best}.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ts::rt {

/// The default store file (see the header comment); never empty.
std::string defaultResultsPath();

/// "TileScope 0.1 (<git revision at configure time>)".
std::string compilerVersion();

/// `tilec --version`'s version: the project version and, when configure found a git checkout,
/// its revision: "0.1 (abc1234)"; "0.1" without one.
std::string versionText();

/// FNV-1a 64 of the program text, 16 hex digits.
std::string sourceHashOf(const std::string& text);

/// Current UTC time as "2026-12-02T01:23:45Z".
std::string utcNow();

class ResultsStore {
public:
    explicit ResultsStore(std::string path = defaultResultsPath());
    const std::string& path() const { return m_path; }

    /// Appends `record` as one line, adding "id" and "date" when missing. Creates the folder.
    /// False with `why` when the file cannot be written.
    bool append(nlohmann::json record, std::string* why = nullptr) const;
    /// Every record in file order; malformed lines (a crash mid-write) are skipped and counted.
    /// A missing file is an empty store.
    std::vector<nlohmann::json> load(size_t* skipped = nullptr, std::string* why = nullptr) const;

    /// Keeps `text` as sources/<hash>.py beside the store (once); returns the hash.
    std::string saveSource(const std::string& text) const;
    /// The text saveSource kept for `hash`, if any.
    std::optional<std::string> loadSource(const std::string& hash) const;

private:
    std::string m_path;
};

/// A fresh id: "<yyyymmddThhmmss>-<pid>-<counter>".
std::string newRecordId();

/// The records as CSV: fixed columns (id, date, kind, status, file, kernel, params, device,
/// driver, compiler, check, time_ms, reason) then one column per metric key found in any record
/// (sorted). Fields with commas, quotes or newlines are quoted (RFC 4180).
std::string recordsToCsv(const std::vector<nlohmann::json>& records);

}  // namespace ts::rt
