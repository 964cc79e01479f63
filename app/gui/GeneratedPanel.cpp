// Generated CUDA/HIP view with libclang outline and go-to-definition (GeneratedPanel.h).
#include "app/gui/GeneratedPanel.h"

#include <QApplication>
#include <QComboBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPointer>
#include <QShortcut>
#include <QSignalBlocker>
#include <QTextDocument>
#include <QThreadPool>
#include <QVBoxLayout>

#include "app/gui/CodeView.h"
#include "app/gui/CudaIndex.h"
#include "app/gui/Session.h"
#include "app/gui/Theme.h"
#include "compiler/target/Target.h"
#include "compiler/support/Resources.h"
#include "profiler/cuda/Nvrtc.h"
#include "visualizer/core/CrossRef.h"

namespace ts::gui {
namespace {
// The file names of the generated unit, as the export writes them (app/cli/Export.h,
// app/cli/HipExport.h); the header is the resource the generated code includes.
const char* kCudaKernelFile = "kernel.cu";
const char* kCudaHeaderFile = "ts_device.cuh";
const char* kHipKernelFile = "kernel.hip";
const char* kHipHeaderFile = "ts_hip.h";
}  // namespace

QString GeneratedPanel::kernelFile() const { return m_hip ? kHipKernelFile : kCudaKernelFile; }
QString GeneratedPanel::headerFile() const { return m_hip ? kHipHeaderFile : kCudaHeaderFile; }

GeneratedPanel::GeneratedPanel(Session& session, QWidget* parent)
    : QWidget(parent), m_session(session) {
    m_header = new QLabel(this);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_header->setWordWrap(true);
    m_file = new QComboBox(this);
    m_file->addItem(kCudaKernelFile);
    m_file->addItem(kCudaHeaderFile);
    m_file->setToolTip(tr("The generated kernel, or the device header it includes (read-only)"));
    m_outline = new QComboBox(this);
    m_outline->setToolTip(tr("Outline (libclang): jump to a function or a kernel declaration"));
    m_outline->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_outline->setMinimumContentsLength(12);
    m_indexState = new QLabel(this);
    m_ptxas = new QLabel(this);
    m_ptxas->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_ptxas->setWordWrap(true);
    m_ptxas->hide();
    m_view = new CodeView(CodeView::Language::Cpp, this);
    m_view->viewport()->installEventFilter(this);
    m_view->setToolTip(QString());

    auto* bar = new QHBoxLayout;
    bar->setSpacing(6);
    bar->addWidget(m_file);
    bar->addWidget(m_outline, 1);
    bar->addWidget(m_indexState);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    lay->setSpacing(4);
    lay->addWidget(m_header);
    lay->addWidget(m_ptxas);
    lay->addLayout(bar);
    lay->addWidget(m_view, 1);

    auto* f12 =
        new QShortcut(QKeySequence(Qt::Key_F12), m_view, nullptr, nullptr, Qt::WidgetShortcut);
    connect(f12, &QShortcut::activated, this, [this] {
        int line, index;
        m_view->getCursorPosition(&line, &index);
        goToDefinition(line, index);
    });
    connect(m_file, &QComboBox::currentTextChanged, this,
            [this](const QString& f) { showFile(f); });
    connect(m_outline, &QComboBox::activated, this, [this](int i) {
        int line = m_outline->itemData(i).toInt();
        if (line <= 0) return;
        showFile(kernelFile());
        m_view->setCursorPosition(line - 1, 0);
        m_view->setFirstVisibleLine(std::max(0, line - 4));
        m_view->setFocus();
    });
    connect(&session, &Session::resultChanged, this, &GeneratedPanel::onResult);
    // Another document: the previous one's code is not "the last successful compile" of this.
    connect(&session, &Session::documentOpened, this, [this] {
        m_cuda.clear();
        ++m_indexTag;  // drop an index of the old code still in flight
        m_index.reset();
        m_outline->clear();
        if (CudaIndex::available()) m_indexState->clear();
        if (shownFile() == kernelFile()) m_view->setCode(QString(), false);
        onResult();
    });
    connect(&session, &Session::focusChanged, this, &GeneratedPanel::updateCrossHighlight);
    connect(m_view, &CodeView::lineClicked, this, [this](int line) {
        auto r = m_session.shown();
        if (!r || shownFile() != kernelFile() || line >= int(r->cudaLineSpans.size())) return;
        if (r->cudaLineSpans[line].valid())
            m_session.setFocus(r->cudaLineSpans[line], FocusOrigin::Generated);
    });
    if (!CudaIndex::available()) {
        m_outline->setEnabled(false);
        m_indexState->setText(tr("no libclang"));
    }
    onResult();
}

GeneratedPanel::~GeneratedPanel() = default;

QString GeneratedPanel::shownFile() const { return m_file->currentText(); }

QString GeneratedPanel::headerText() const {
    QTextDocument doc;
    doc.setHtml(m_header->text());
    return doc.toPlainText();
}

QString GeneratedPanel::ptxasText() const { return m_ptxas->isHidden() ? QString() : m_ptxas->text(); }

// ptxas's figures for the shown CUDA: NVRTC compiles it off the UI thread (the cubin cache makes a
// recompile of unchanged code free), and the line says what ptxas allocated -- what the Run panel
// would launch -- with spills and a serialized wgmma in the warning colour.
void GeneratedPanel::startPtxas(const std::string& cuda, const std::string& arch) {
    const quint64 tag = ++m_ptxasTag;
    m_ptxasLatest->store(tag);
    if (!rt::nvrtcAvailable()) {
        m_ptxas->hide();
        return;
    }
    m_ptxas->setText(tr("ptxas %1: compiling…").arg(QString::fromStdString(arch)));
    m_ptxas->setStyleSheet(QString());
    m_ptxas->show();
    QPointer<GeneratedPanel> self(this);
    QThreadPool::globalInstance()->start([self, tag, cuda, arch, latest = m_ptxasLatest] {
        if (latest->load() != tag) return;  // newer code came while this waited for a thread
        const rt::NvrtcResult nv = rt::compileCuda(cuda, arch, {}, true);
        QString text, tip;
        bool warn = false;
        const QString a = QString::fromStdString(arch);
        if (!nv.ok) {
            text = QObject::tr("ptxas %1: NVRTC rejected the generated CUDA (a compiler bug; tilec compile shows the log)").arg(a);
            tip = QString::fromStdString(nv.log);
            warn = true;
        } else if (nv.ptxas.kernels.empty()) {
            text = QObject::tr("ptxas %1: no figures (a cubin cached before ptxas -v was recorded; edit to recompile)").arg(a);
        } else {
            for (const rt::PtxasKernelInfo& k : nv.ptxas.kernels) {
                text += (text.isEmpty() ? QObject::tr("ptxas %1: ").arg(a) : QStringLiteral("; ")) + QString::fromStdString(rt::ptxasSummary(k));
                warn |= k.spillStoreBytes || k.spillLoadBytes || k.wgmmaSerialized;
                for (const std::string& r : k.remarks) tip += QString::fromStdString(r) + "\n";
            }
            tip += QObject::tr("What ptxas allocated per thread for the cubin this CUDA compiles to (NVRTC, %1 ms%2); no GPU needed.")
                       .arg(nv.compileMs, 0, 'f', 0)
                       .arg(nv.cacheHit ? QObject::tr(", cached") : QString());
        }
        QMetaObject::invokeMethod(
            qApp,
            [self, tag, text, warn, tip] {
                if (self) self->onPtxas(tag, text, warn, tip);
            },
            Qt::QueuedConnection);
    });
}

void GeneratedPanel::onPtxas(quint64 tag, const QString& text, bool warn, const QString& tip) {
    if (tag != m_ptxasTag) return;  // the code changed meanwhile; a newer compile is coming
    m_ptxas->setText(text);
    m_ptxas->setToolTip(tip.trimmed());
    m_ptxas->setStyleSheet(warn ? QString("color: %1").arg(theme().warning.name()) : QString());
    m_ptxas->show();
    emit ptxasUpdated();
}

void GeneratedPanel::showFile(const QString& file) {
    if (m_file->currentText() != file) {
        m_file->setCurrentText(file);  // re-enters through currentTextChanged
        return;
    }
    if (file == headerFile()) {
        std::string_view h = resources::find(headerFile().toStdString());
        m_view->setCode(QString::fromUtf8(h.data(), int(h.size())), false);
    } else {
        m_view->setCode(m_cuda, false);
        updateCrossHighlight();
    }
}

void GeneratedPanel::onResult() {
    auto r = m_session.shown();
    if (!r) {
        m_header->setText(tr("<i>Not compiled yet</i>"));
        m_view->setCode(QString(), false);
        return;
    }
    if (r->cuda.empty()) {
        // Keep the last generated code on screen while the program has errors, but say so; and
        // never claim a successful compile there has not been (new-user trial: a file that
        // never compiled said "the code below is from the last successful compile").
        m_header->setText(
            tr("<span style='color:%1'>No code generated: the program has errors "
               "(see Problems).</span> %2")
                .arg(theme().error.name(),
                     m_cuda.isEmpty() ? tr("No successful compile of this program yet.")
                                      : tr("The code below is from the last successful compile.")));
        return;
    }
    setLanguage(r->language == "hip");
    const KernelInfo& k = r->kernel;
    QString header =
        tr("<b>%1</b> &nbsp; grid (%2, %3, %4) &nbsp; block (%5, %6, %7) &nbsp; smem %8")
            .arg(QString::fromStdString(k.name).toHtmlEscaped())
            .arg(k.grid[0])
            .arg(k.grid[1])
            .arg(k.grid[2])
            .arg(k.block[0])
            .arg(k.block[1])
            .arg(k.block[2])
            .arg(k.dynamicSmemBytes >= 1024
                     ? QString("%1 KiB").arg(k.dynamicSmemBytes / 1024.0, 0, 'g', 4)
                     : QString("%1 B").arg(qulonglong(k.dynamicSmemBytes)));
    if (m_session.shownIsStale())
        header += tr(" &nbsp; <span style='color:%1'>(last successful compile)</span>")
                      .arg(theme().warning.name());
    m_header->setText(header);
    m_header->setToolTip(tr("Dynamic shared memory %1 bytes; codegen took %2 ms")
                             .arg(qulonglong(k.dynamicSmemBytes))
                             .arg(r->codegenMicros / 1000.0, 0, 'f', 2));
    QString cuda = QString::fromStdString(r->cuda);
    if (cuda != m_cuda) {
        m_cuda = cuda;
        if (shownFile() == kernelFile()) m_view->setCode(m_cuda);
        startIndexing(r->cuda);
        auto target = parseTarget(m_session.target().toStdString());
        if (r->language == "cuda" && target && !target->isHip())
            startPtxas(r->cuda, target->arch());
        else
            m_ptxasLatest->store(++m_ptxasTag), m_ptxas->hide();
    }
    updateCrossHighlight();
}

void GeneratedPanel::setLanguage(bool hip) {
    // The title, the file names and the header follow the target's language: a HIP kernel
    // includes ts_hip.h, not the CUDA device header. MainWindow copies the title to the dock.
    setWindowTitle(hip ? tr("Generated HIP") : tr("Generated CUDA"));
    if (hip == m_hip) return;
    m_hip = hip;
    const bool onHeader = m_file->currentIndex() == 1;
    {
        QSignalBlocker block(m_file);
        m_file->setItemText(0, kernelFile());
        m_file->setItemText(1, headerFile());
    }
    showFile(onHeader ? headerFile() : kernelFile());
}

void GeneratedPanel::startIndexing(const std::string& cuda) {
    if (!CudaIndex::available()) return;
    if (m_hip) {
        // CudaIndex parses CUDA against ts_device.cuh (nvptx); HIP code includes ts_hip.h and
        // amdgcn builtins it cannot parse, so there is no outline rather than a wrong one.
        ++m_indexTag;
        m_index.reset();
        m_outline->clear();
        m_indexState->setText(tr("no outline for HIP"));
        m_indexState->setToolTip(tr("The libclang outline indexes CUDA only"));
        return;
    }
    quint64 tag = ++m_indexTag;
    m_indexState->setText(tr("indexing…"));
    std::string header(resources::find(kCudaHeaderFile));
    QPointer<GeneratedPanel> self(this);
    QThreadPool::globalInstance()->start([self, tag, cuda, header] {
        std::string error;
        std::shared_ptr<CudaIndex> index = CudaIndex::parse(cuda, header, &error);
        QString err = QString::fromStdString(error);
        // Posted to the application object (always alive); `self` is only checked on the UI
        // thread, where the panel is destroyed.
        QMetaObject::invokeMethod(
            qApp,
            [self, tag, index, err] {
                if (self) self->onIndexed(tag, index, err);
            },
            Qt::QueuedConnection);
    });
}

void GeneratedPanel::onIndexed(quint64 tag, std::shared_ptr<CudaIndex> index, QString error) {
    if (tag != m_indexTag) return;  // code changed meanwhile; a newer parse is coming
    m_index = std::move(index);
    m_outline->clear();
    if (!m_index) {
        m_indexState->setText(tr("no index"));
        m_indexState->setToolTip(error);
        return;
    }
    int functions = 0;
    for (const OutlineItem& o : m_index->outline()) {
        QString icon = o.kind == "kernel" ? QStringLiteral("▶ ")
                       : o.depth          ? QStringLiteral("    · ")
                                          : QStringLiteral("ƒ ");
        m_outline->addItem(icon + QString::fromStdString(o.name) + tr("   (line %1)").arg(o.line),
                           o.line);
        functions += o.depth == 0;
    }
    m_indexState->setText(tr("%n function(s)", "", functions));
    m_indexState->setToolTip(tr("Indexed by libclang; F12 or Ctrl+click goes to a definition"));
    // Start on the kernel.
    for (int i = 0; i < m_outline->count(); ++i)
        if (m_outline->itemText(i).startsWith(QStringLiteral("▶"))) m_outline->setCurrentIndex(i);
    emit indexUpdated();
}

QStringList GeneratedPanel::outlineLabels() const {
    QStringList out;
    for (int i = 0; i < m_outline->count(); ++i) out << m_outline->itemText(i);
    return out;
}

bool GeneratedPanel::goToDefinition(int line, int index) {
    if (!m_index) return false;
    auto loc = m_index->definitionAt(shownFile().toStdString(), line + 1, index + 1);
    if (!loc) return false;
    showFile(QString::fromStdString(loc->file));
    m_view->setCursorPosition(loc->line - 1, std::max(0, loc->col - 1));
    int visible = int(m_view->SendScintilla(QsciScintilla::SCI_LINESONSCREEN));
    m_view->setFirstVisibleLine(std::max(0, loc->line - 1 - visible / 3));
    m_view->setHighlightedLines({loc->line - 1}, false);
    return true;
}

bool GeneratedPanel::eventFilter(QObject* o, QEvent* e) {
    if (o == m_view->viewport() && e->type() == QEvent::MouseButtonRelease) {
        auto* me = static_cast<QMouseEvent*>(e);
        if (me->button() == Qt::LeftButton && (me->modifiers() & Qt::ControlModifier)) {
            long pos = m_view->SendScintilla(QsciScintilla::SCI_POSITIONFROMPOINTCLOSE,
                                             long(me->position().x()), long(me->position().y()));
            if (pos >= 0) {
                int line, index;
                m_view->lineIndexFromPosition(int(pos), &line, &index);
                goToDefinition(line, index);
                return true;
            }
        }
    }
    return QWidget::eventFilter(o, e);
}

void GeneratedPanel::updateCrossHighlight() {
    auto r = m_session.shown();
    if (!r || r->cuda.empty() || shownFile() != kernelFile()) return;
    const Focus& f = m_session.focus();
    std::vector<int> lines;
    if (f.origin == FocusOrigin::Source)
        lines = viz::linesForSourceLine(r->cudaLineSpans, f.span.line);
    else if (f.origin != FocusOrigin::None)
        lines = viz::linesWithinSpan(r->cudaLineSpans, f.span);
    m_view->setHighlightedLines(lines, f.origin != FocusOrigin::Generated);
}

}  // namespace ts::gui
