// The generated-source panel: the CUDA C++ (HIP C++ on hip targets, titled "Generated HIP") of
// the latest successful compile (C++ lexer with CUDA keywords), a header line with the kernel's launch configuration, and cross-highlighting through
// CompileResult::cudaLineSpans — the lines generated from the focused source span are banded, and
// clicking a generated line focuses the source statement it came from. Through libclang
// (CudaIndex.h, parsed off the UI thread) it has an outline of the file (functions, the kernel and
// its declarations) and go to definition (F12 or Ctrl+click), also into our device header, which
// the file switcher shows read-only (CUDA only: the HIP view has the switcher, no outline).
#pragma once
#include <QWidget>
#include <atomic>
#include <memory>

class QComboBox;
class QLabel;

namespace ts::gui {

class CodeView;
class CudaIndex;
class Session;

class GeneratedPanel : public QWidget {
    Q_OBJECT
public:
    explicit GeneratedPanel(Session& session, QWidget* parent = nullptr);
    ~GeneratedPanel() override;
    CodeView* view() const { return m_view; }
    /// The outline combo's entries (tests).
    QStringList outlineLabels() const;
    /// True once libclang has indexed the current code.
    bool indexed() const { return m_index != nullptr; }
    /// Goes to the definition of the symbol at 0-based line/index of the shown file; false if
    /// there is none.
    bool goToDefinition(int line, int index);
    /// "kernel.cu" or "ts_device.cuh" (CUDA targets); "kernel.hip" or "ts_hip.h" (HIP targets).
    QString shownFile() const;
    /// The generated kernel's file name for the shown result's language.
    QString kernelFile() const;
    /// The device header that kernel includes.
    QString headerFile() const;
    void showFile(const QString& file);
    /// The header line's text (kernel, grid, ... or why there is no code), plain (tests).
    QString headerText() const;
    /// The ptxas line under it: what ptxas allocated for the shown CUDA (registers, spills,
    /// barriers, a serialized wgmma), from an NVRTC compile in the background (no GPU needed);
    /// empty for HIP, before the first result and without NVRTC in the build. Plain (tests).
    QString ptxasText() const;

signals:
    /// libclang finished indexing the current code.
    void indexUpdated();
    /// The ptxas line changed (a background NVRTC compile finished).
    void ptxasUpdated();

protected:
    bool eventFilter(QObject* o, QEvent* e) override;

private:
    void onResult();
    /// Switches title, file names and header between CUDA and HIP (the shown result's language).
    void setLanguage(bool hip);
    void updateCrossHighlight();
    void startIndexing(const std::string& cuda);
    void onIndexed(quint64 tag, std::shared_ptr<CudaIndex> index, QString error);
    void startPtxas(const std::string& cuda, const std::string& arch);
    void onPtxas(quint64 tag, const QString& text, bool warn, const QString& tip);

    Session& m_session;
    QLabel* m_header;
    QComboBox* m_file;
    QComboBox* m_outline;
    QLabel* m_indexState;
    QLabel* m_ptxas;
    quint64 m_ptxasTag = 0;
    /// m_ptxasTag as the pool threads see it: a queued compile of code typed over meanwhile is
    /// skipped instead of spending NVRTC's 0.2-1 s of CPU on it.
    std::shared_ptr<std::atomic<quint64>> m_ptxasLatest = std::make_shared<std::atomic<quint64>>(0);
    CodeView* m_view;
    QString m_cuda;  ///< the kernel.cu text shown/indexed
    std::shared_ptr<CudaIndex> m_index;
    quint64 m_indexTag = 0;
    bool m_hip = false;  ///< the shown code is HIP (ts_hip.h), not CUDA
};

}  // namespace ts::gui
