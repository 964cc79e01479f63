// The IDE's state and its signals (Session.h).
#include "app/gui/Session.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <algorithm>
#include <iterator>

#include "compiler/support/ParamPragma.h"

namespace ts::gui {

Session::Session(QObject* parent) : QObject(parent) {
    qRegisterMetaType<ResultPtr>();
    connect(&m_worker, &CompileWorker::finished, this, &Session::onFinished);
    connect(&m_worker, &CompileWorker::started, this, [this] { emit compileStarted(); });
}

QString Session::displayName() const {
    return m_path.isEmpty() ? QStringLiteral("untitled.py") : QFileInfo(m_path).fileName();
}

void Session::openDocument(const QString& path, const QString& text) {
    m_path = path;
    m_text = text;
    m_focus = {};
    m_result.reset();
    m_shown.reset();
    m_comparePass = -1;
    emit pathChanged(m_path);
    emit documentOpened();
    setModified(false);
    requestCompile(0);
}

void Session::setTextInternal(const QString& text) {
    if (text == m_text) return;
    m_text = text;
    setModified(true);
    requestCompile();
}

void Session::setTextFromEditor(const QString& text) { setTextInternal(text); }

void Session::markSaved(const QString& path) {
    if (path != m_path) {
        m_path = path;
        emit pathChanged(m_path);
    }
    setModified(false);
}

void Session::setModified(bool m) {
    if (m == m_modified) return;
    m_modified = m;
    emit modifiedChanged(m);
}

std::map<std::string, std::string> Session::paramOverrides() const {
    return parseParamPragma(m_text.toStdString());
}

void Session::setParam(const std::string& name, const std::string& value) {
    auto values = paramOverrides();
    if (value.empty())
        values.erase(name);
    else
        values[name] = value;
    QString text = QString::fromStdString(withParamPragma(m_text.toStdString(), values));
    if (text == m_text) return;
    setTextInternal(text);
    emit textReplaced(m_text);
}

void Session::resetParams() {
    auto values = paramOverrides();
    for (auto it = values.begin(); it != values.end();)
        it = isPragmaSetting(it->first) ? std::next(it) : values.erase(it);
    QString text = QString::fromStdString(withParamPragma(m_text.toStdString(), values));
    if (text == m_text) return;
    setTextInternal(text);
    emit textReplaced(m_text);
}

std::string Session::kernel() const { return pragmaSetting(paramOverrides(), kPragmaKernel); }

void Session::setKernel(const std::string& name) {
    bool isDefault = name.empty();
    if (m_result)
        for (const auto& k : m_result->kernels)
            if (k.name == name) isDefault = k.isDefault;
    auto values = paramOverrides();
    if (isDefault)
        values.erase(std::string(kPragmaKernel));
    else
        values[std::string(kPragmaKernel)] = name;
    QString text = QString::fromStdString(withParamPragma(m_text.toStdString(), values));
    if (text == m_text) return;
    setTextInternal(text);
    emit textReplaced(m_text);
    requestCompile(0);  // a deliberate choice: no debounce
}

void Session::setTarget(const QString& target) {
    if (target == m_target) return;
    m_target = target;
    emit targetChanged(target);
    requestCompile(0);
}

QString Session::stamp() const {
    QCryptographicHash h(QCryptographicHash::Sha1);
    h.addData(m_text.toUtf8());
    h.addData(QByteArrayView("\0", 1));
    h.addData(m_target.toUtf8());
    return QString::fromLatin1(h.result().toHex().left(16));
}

void Session::requestCompile(int debounceMs) {
    emit stampChanged();  // every text or target change comes through here
    CompileRequest req;
    req.path = m_path.isEmpty() ? std::string("untitled.py") : m_path.toStdString();
    req.text = m_text.toStdString();
    req.options.params = paramOverrides();  // compile() skips the '@' settings
    req.options.kernel = kernel();
    req.options.target = m_target.toStdString();
    if (debounceMs < 0)
        m_worker.schedule(std::move(req), effectiveDebounceMs(), nextCompileSpeculative());
    else
        m_worker.schedule(std::move(req), debounceMs);
}

bool Session::nextCompileSpeculative() const {
    // A cheap compile (the usual case: a few ms) may run for every keystroke of a burst and be
    // cancelled by the next; a slow one waits for the pause as before.
    return m_speculative && m_result && 2 * m_lastCompileMs <= effectiveDebounceMs();
}

int Session::effectiveDebounceMs() const {
    if (m_debounceMs <= 40) return m_debounceMs;
    if (!m_result) return m_debounceMs;
    return std::clamp(int(3 * m_lastCompileMs), 40, m_debounceMs);
}

void Session::onFinished(quint64, ResultPtr result, double latencyMs, double compileMs) {
    m_result = std::move(result);
    // Keep showing the last result where passes ran; a result without passes replaces one that
    // had none either (otherwise a second failed compile would present the first as "last
    // successful", with every pass "not run").
    if (!m_result->passes.empty() || !m_shown || m_shown->passes.empty()) m_shown = m_result;
    m_lastLatencyMs = latencyMs;
    m_lastCompileMs = compileMs;
    // Keep the selected pass across recompiles by name (the pipeline may have changed length).
    const auto& passes = m_shown->passes;
    int sel = -1;
    for (size_t i = 0; i < passes.size(); ++i)
        if (passes[i].name == m_selectedPassName) sel = static_cast<int>(i);
    if (sel < 0 && !passes.empty())
        sel = m_selectedPass >= 0 ? std::min<int>(m_selectedPass, int(passes.size()) - 1) : 0;
    m_selectedPass = sel;
    if (m_comparePass >= int(passes.size())) m_comparePass = -1;
    emit resultChanged();
    emit passSelected(m_selectedPass);
}

void Session::selectPass(int index) {
    int n = m_shown ? int(m_shown->passes.size()) : 0;
    if (index < -1 || index >= n) return;
    if (index == m_selectedPass) return;
    m_selectedPass = index;
    m_selectedPassName = index >= 0 ? m_shown->passes[index].name : std::string();
    emit passSelected(index);
}

void Session::setComparePass(int index) {
    if (index == m_comparePass) return;
    m_comparePass = index;
    emit comparePassChanged(index);
}

int Session::neighbourChangedPass(int dir) const {
    if (!m_shown) return -1;
    const auto& passes = m_shown->passes;
    for (int i = m_selectedPass + dir; i >= 0 && i < int(passes.size()); i += dir)
        if (passes[i].changed) return i;
    return -1;
}

void Session::setFocus(const Span& span, FocusOrigin origin) {
    if (span == m_focus.span && origin == m_focus.origin) return;
    m_focus = {span, origin};
    emit focusChanged();
}

}  // namespace ts::gui
