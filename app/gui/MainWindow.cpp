// Main window: docks, files, settings, status (MainWindow.h). Menus: MainWindowActions.cpp.
#include "app/gui/MainWindow.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QResizeEvent>
#include <QSaveFile>
#include <QSettings>
#include <QStatusBar>
#include <QVBoxLayout>

#include "app/gui/CommandPalette.h"
#include "app/gui/DefaultTarget.h"
#include "app/gui/FindBar.h"
#include "app/gui/PanelRegistry.h"
#include "app/gui/Recovery.h"
#include "app/gui/Session.h"
#include "app/gui/SourceEditor.h"
#include "app/gui/Theme.h"
#include "app/gui/Workspaces.h"
#include "compiler/support/SourceReader.h"
#include "compiler/support/TextCheck.h"

namespace ts::gui {

MainWindow::MainWindow(bool restoreLayout, QWidget* parent) : QMainWindow(parent) {
    setObjectName("MainWindow");
    m_session = new Session(this);
    m_editor = new SourceEditor(*m_session, this);
    m_recovery = new Recovery(*m_session, QString(), Recovery::kAutosaveMs, this);
    m_findBar = new FindBar(m_editor, this);
    m_findBar->hide();
    auto* central = new QWidget(this);
    auto* lay = new QVBoxLayout(central);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->setSpacing(0);
    lay->addWidget(m_editor, 1);
    lay->addWidget(m_findBar);
    setCentralWidget(central);
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);

    createDocks();
    m_defaultState = saveState();  // every panel at its factory position: workspace defaults
    m_workspaces = new WorkspaceManager(*this, m_docks, m_defaultState, restoreLayout);
    connect(m_workspaces, &WorkspaceManager::workspaceChanged, this,
            [this] { m_sizesFollowWindow = false; });
    createActions();
    createMenus();
    createWorkspaceUi();
    createStatusBar();
    resize(1440, 900);

    connect(m_session, &Session::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_session, &Session::pathChanged, this, &MainWindow::updateTitle);
    connect(m_session, &Session::resultChanged, this, &MainWindow::updateStatus);
    connect(m_session, &Session::compileStarted, this, &MainWindow::updateStatus);
    connect(m_session, &Session::targetChanged, this, &MainWindow::updateStatus);
    connect(m_editor, &QsciScintilla::cursorPositionChanged, this, [this](int l, int c) {
        m_caretLabel->setText(tr("Ln %1, Col %2").arg(l + 1).arg(c + 1));
    });
    loadSettings(restoreLayout);
    updateTitle();
    updateStatus();
}

MainWindow::~MainWindow() = default;

void MainWindow::createDocks() {
    registerBuiltinPanels();
    QMap<QString, QDockWidget*> firstOfGroup;
    QDockWidget* previousRight = nullptr;
    for (const PanelFactory& f : panelFactories()) {
        auto* dock = new QDockWidget(f.title, this);
        dock->setObjectName("dock." + f.id);
        dock->setWidget(f.create(*m_session));
        // A panel whose subject changes its name (Generated CUDA / Generated HIP, by the
        // target's language) says so through its window title; the dock shows it.
        if (!dock->widget()->windowTitle().isEmpty()) dock->setWindowTitle(dock->widget()->windowTitle());
        connect(dock->widget(), &QWidget::windowTitleChanged, dock, &QDockWidget::setWindowTitle);
        dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                          QDockWidget::DockWidgetClosable);
        m_docks.insert(f.id, dock);
        // A dock moved, floated or re-docked by the user: the sizes stop following the window.
        connect(dock, &QDockWidget::dockLocationChanged, this, [this] { m_sizesFollowWindow = false; });
        connect(dock, &QDockWidget::topLevelChanged, this, [this] { m_sizesFollowWindow = false; });
        if (auto* lazy = dynamic_cast<LazyPanel*>(dock->widget())) {
            // Nothing is on screen before the window is shown, and a dock that the first
            // workspace closes never reports visibilityChanged(false): without this, Layout,
            // Banks, Timeline and Barriers rebuilt their pictures on every edit while closed
            // (LayoutGridModel::fromFunction was most of the UI thread's time per result).
            lazy->setPanelShown(false);
            connect(dock, &QDockWidget::visibilityChanged, this,
                    [lazy](bool visible) { lazy->setPanelShown(visible); });
        }
        QString groupKey = QString::number(int(f.area)) + "/" + f.tabGroup;
        if (!f.tabGroup.isEmpty() && firstOfGroup.contains(groupKey)) {
            tabifyDockWidget(firstOfGroup[groupKey], dock);
            continue;
        }
        if (!f.tabGroup.isEmpty() && f.area == Qt::RightDockWidgetArea && previousRight) {
            // Extra right-side panels (plugins) are tabs next to the last right panel.
            tabifyDockWidget(previousRight, dock);
            firstOfGroup.insert(groupKey, previousRight);
            continue;
        }
        if (f.area == Qt::RightDockWidgetArea && previousRight) {
            // Right-side panels sit next to each other (pass explorer | generated code).
            splitDockWidget(previousRight, dock, Qt::Horizontal);
        } else {
            addDockWidget(f.area, dock);
        }
        if (f.area == Qt::RightDockWidgetArea) previousRight = dock;
        if (!f.tabGroup.isEmpty()) firstOfGroup.insert(groupKey, dock);
    }
    // The first panel of each tab group is the one to see first.
    for (const char* id : {"params", "generated"})
        if (auto* d = m_docks.value(id)) d->raise();
}

void MainWindow::applyDefaultDockSizes() { m_workspaces->applyDefaultSizes(); }

void MainWindow::showEvent(QShowEvent* e) {
    QMainWindow::showEvent(e);
    if (!m_sized) {
        m_sized = true;
        if (!m_layoutRestored) {
            applyDefaultDockSizes();
            m_sizesFollowWindow = true;
        }
    }
}

// New-user trial: the window opens at 1440x900 and is maximised to 1920x1080; the docks kept
// their 1440-based sizes and the editor took the rest (Parameters 4 of 10 rows, Generated CUDA
// ~390 px). Until the user arranges something, the default proportions follow the window.
void MainWindow::resizeEvent(QResizeEvent* e) {
    QMainWindow::resizeEvent(e);
    if (m_sizesFollowWindow && isVisible()) applyDefaultDockSizes();
}

bool MainWindow::event(QEvent* e) {
    // A press that reaches the window itself is on a dock separator (or on a child that did not
    // take it): from then on the sizes are the user's.
    if (e->type() == QEvent::MouseButtonPress) m_sizesFollowWindow = false;
    return QMainWindow::event(e);
}

QWidget* MainWindow::panel(const QString& id) const {
    QDockWidget* d = m_docks.value(id);
    return d ? d->widget() : nullptr;
}

void MainWindow::createStatusBar() {
    m_compileLabel = new QLabel(this);
    m_caretLabel = new QLabel(tr("Ln 1, Col 1"), this);
    m_targetLabel = new QLabel(this);
    for (QLabel* l : {m_compileLabel, m_caretLabel, m_targetLabel})
        l->setContentsMargins(8, 0, 8, 0);
    // Permanent widgets, so transient messages (showMessage) never draw over them.
    statusBar()->addPermanentWidget(m_compileLabel);
    statusBar()->addPermanentWidget(m_targetLabel);
    statusBar()->addPermanentWidget(m_caretLabel);
}

void MainWindow::updateTitle() {
    setWindowTitle(QStringLiteral("%1[*] — TileScope").arg(m_session->displayName()));
    setWindowModified(m_session->isModified());
}

void MainWindow::updateStatus() {
    auto r = m_session->result();
    // In a file with several kernels, which one every panel shows (the Parameters panel picks).
    const ProgramKernel* k = r && r->kernels.size() > 1 ? r->selected() : nullptr;
    m_targetLabel->setText(
        k ? tr("%1  ·  kernel %2").arg(m_session->target(), QString::fromStdString(k->name))
          : m_session->target());
    if (m_session->compiling()) {
        m_compileLabel->setText(tr("Compiling…"));
        return;
    }
    if (!r) {
        m_compileLabel->setText(tr("Open a tile program (File › Samples) to start"));
        return;
    }
    int errors = 0;
    for (const auto& d : r->diagnostics) errors += d.severity == Severity::Error;
    int changed = 0;
    for (const auto& p : r->passes) changed += p.changed;
    QString s = errors ? tr("✖ %n error(s)", "", errors) : tr("✔ Compiled");
    s += tr("  ·  %1 passes (%2 changed)  ·  %3 ms")
             .arg(r->passes.size())
             .arg(changed)
             .arg(m_session->lastCompileMs(), 0, 'f', 1);
    m_compileLabel->setText(s);
}

// --- files -----------------------------------------------------------------------------------

bool MainWindow::maybeSave() {
    if (!m_session->isModified()) return true;
    auto answer = QMessageBox::warning(
        this, tr("Unsaved changes"),
        tr("%1 has unsaved changes. Save them?").arg(m_session->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save) return save();
    return answer == QMessageBox::Discard;
}

bool MainWindow::openFile(const QString& path, bool force) {
    if (!force && !maybeSave()) return false;
    // Bounded and type-checked (compiler/support/SourceReader.h): opening /dev/zero or a FIFO
    // used to read until the IDE was OOM-killed or hung.
    ts::SourceReadResult read = ts::readSourceFile(path.toStdString());
    if (!read.ok()) {
        QMessageBox::warning(
            this, tr("Open"),
            tr("Cannot open %1: %2").arg(path, QString::fromStdString(read.error)));
        return false;
    }
    // The editor holds UTF-16: a byte that starts no UTF-8 character would become U+FFFD and a save
    // would write that instead (helper-108: a latin-1 file showed "Compiled" here while tilec
    // rejected it). Refused with tilec's words and where the byte is.
    if (auto bad = ts::firstNonTextByte(read.text)) {
        QMessageBox::warning(this, tr("Open"),
                             tr("Cannot open %1: %2 (byte 0x%3 at line %4, column %5).\n\nSave it as UTF-8 text "
                                "first: opened here, the byte would be replaced and a save would lose it.")
                                 .arg(path, bad->byte == 0 ? tr("it is a binary file, not a tile program") : tr("it is not UTF-8 text"))
                                 .arg(QString::number(bad->byte, 16).toUpper().rightJustified(2, '0'))
                                 .arg(bad->at.line)
                                 .arg(bad->at.col));
        return false;
    }
    QString text = QString::fromUtf8(read.text.data(), qsizetype(read.text.size()));
    m_session->openDocument(QFileInfo(path).absoluteFilePath(), text);
    addRecent(QFileInfo(path).absoluteFilePath());
    return true;
}

bool MainWindow::save() {
    if (m_session->path().isEmpty()) return saveAs();
    QSaveFile f(m_session->path());
    if (!f.open(QIODevice::WriteOnly) || f.write(m_session->text().toUtf8()) < 0 || !f.commit()) {
        QMessageBox::warning(this, tr("Save"),
                             tr("Cannot save %1: %2").arg(m_session->path(), f.errorString()));
        return false;
    }
    m_session->markSaved(m_session->path());
    statusBar()->showMessage(tr("Saved %1").arg(m_session->path()), 3000);
    return true;
}

bool MainWindow::saveAs() {
    QString dir = m_session->path().isEmpty() ? QDir::homePath() : m_session->path();
    QString path =
        QFileDialog::getSaveFileName(this, tr("Save As"), dir, tr("Tile programs (*.py)"));
    if (path.isEmpty()) return false;
    m_session->markSaved(path);
    m_session->setModified(true);
    addRecent(path);
    return save();
}

void MainWindow::newFile() {
    if (!maybeSave()) return;
    m_session->openDocument(
        QString(),
        QStringLiteral("import tilelang\nimport tilelang.language as T\n\n\n"
                       "def kernel(M=1024, N=1024, block_M=64, block_N=64, dtype=\"float16\"):\n"
                       "    @T.prim_func\n"
                       "    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):\n"
                       "        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), "
                       "threads=128) as (bx, by):\n"
                       "            tile = T.alloc_shared((block_M, block_N), dtype)\n"
                       "            T.copy(A[by * block_M, bx * block_N], tile)\n"
                       "            T.copy(tile, B[by * block_M, bx * block_N])\n\n"
                       "    return main\n"));
}

void MainWindow::addRecent(const QString& path) {
    QSettings s;
    QStringList recent = s.value("recentFiles").toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > 10) recent.removeLast();
    s.setValue("recentFiles", recent);
    rebuildRecentMenu();
}

QString MainWindow::samplesDir() {
    QStringList candidates;
    QString env = qEnvironmentVariable("TS_SOURCE_DIR");
    if (!env.isEmpty()) candidates << env + "/samples";
    // Installed or built layouts: samples/ next to the binary or in a parent of its folder.
    QDir d(QCoreApplication::applicationDirPath());
    for (int up = 0; up < 5; ++up) {
        candidates << d.absoluteFilePath("samples");
        if (!d.cdUp()) break;
    }
#ifdef TS_SOURCE_DIR
    candidates << QStringLiteral(TS_SOURCE_DIR "/samples");
#endif
    for (const QString& c : candidates) {
        QDir dir(c);
        if (dir.exists() && !dir.entryList({"*.py"}, QDir::Files).isEmpty())
            return dir.absolutePath();
    }
    return {};
}

// --- settings --------------------------------------------------------------------------------

void MainWindow::loadSettings(bool restoreLayout) {
    QSettings s;
    setTheme(s.value("theme", "light").toString());
    if (restoreLayout) {
        restoreGeometry(s.value("geometry").toByteArray());
        m_layoutRestored = restoreState(s.value("windowState").toByteArray());
    }
    // The saved window state is the saved workspace's arrangement; otherwise start in Inspect
    // (the passes and generated code next to the editor: what the IDE is for).
    if (!m_layoutRestored || !m_workspaces->loadSaved()) m_workspaces->switchTo(kWorkspaceInspect);
    // A target the user picked (Run › Target) wins; otherwise the attached GPU's.
    QString target = s.value("target", attachedGpuTarget()).toString();
    m_session->setTarget(target);
    for (QAction* a : m_targetGroup->actions()) a->setChecked(a->data().toString() == target);
}

void MainWindow::saveSettings() {
    m_workspaces->restoreMaximized();
    m_workspaces->saveCurrent();
    QSettings s;
    s.setValue("geometry", saveGeometry());
    s.setValue("windowState", saveState());
    s.setValue("theme", ThemeManager::instance().theme().name);
    if (!m_session->path().isEmpty()) s.setValue("lastFile", m_session->path());
}

void MainWindow::resetLayout() { m_workspaces->resetCurrent(); }

int MainWindow::offerRecovery() {
    int recovered = 0;
    // Corrupt recovery files are set aside (renamed corrupt-*.json) and reported, never loaded.
    const QStringList corrupt = m_recovery->setAsideCorrupt();
    if (!corrupt.isEmpty()) {
        QMessageBox box(QMessageBox::Warning, tr("Corrupt recovery file"),
                        tr("%n recovery file(s) of an earlier session could not be read and were "
                           "set aside (not loaded).",
                           nullptr, int(corrupt.size())),
                        QMessageBox::Ok, this);
        box.setInformativeText(corrupt.join('\n'));
        box.exec();
    }
    for (const RecoveryEntry& e : m_recovery->orphans()) {
        QString name = e.path.isEmpty() ? tr("an untitled document") : QFileInfo(e.path).fileName();
        QMessageBox box(QMessageBox::Warning, tr("Recover unsaved changes"),
                        tr("TileScope did not close normally. Recover the unsaved changes to %1 "
                           "(autosaved %2)?")
                            .arg(name, e.savedAt.toLocalTime().toString("yyyy-MM-dd hh:mm:ss")),
                        QMessageBox::NoButton, this);
        box.setInformativeText(e.path);
        QPushButton* recover = box.addButton(tr("Recover"), QMessageBox::AcceptRole);
        QPushButton* discard = box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
        box.addButton(tr("Later"), QMessageBox::RejectRole);
        box.exec();
        if (box.clickedButton() == discard) {
            Recovery::discard(e);
        } else if (box.clickedButton() == recover && recovered == 0) {
            m_session->openDocument(e.path, e.text);
            m_session->setModified(true);
            Recovery::discard(e);
            m_recovery->autosaveNow();
            ++recovered;
        }
    }
    return recovered;
}

void MainWindow::setTheme(const QString& name) {
    ThemeManager::instance().setTheme(name);
    if (m_themeGroup)
        for (QAction* a : m_themeGroup->actions()) a->setChecked(a->data().toString() == name);
}

void MainWindow::showCommandPalette() {
    auto* palette = new CommandPalette(commands(), this);
    palette->setAttribute(Qt::WA_DeleteOnClose);
    QPoint top = mapToGlobal(QPoint((width() - palette->width()) / 2, 60));
    palette->move(top);
    palette->show();
    palette->input()->setFocus();
}

QList<QAction*> MainWindow::commands() const { return m_commandOrder; }

void MainWindow::closeEvent(QCloseEvent* e) {
    if (!maybeSave()) {
        e->ignore();
        return;
    }
    saveSettings();
    m_recovery->clear();
    e->accept();
}

}  // namespace ts::gui
