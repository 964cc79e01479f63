// The main window's actions and menus (MainWindow.h). Every action gets an id (tests, the
// command palette) and a "Menu › Name" label for the palette.
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTableWidget>
#include <QVBoxLayout>

#include "app/cli/ProjectExport.h"
#include "app/gui/BankPanel.h"
#include "app/gui/DefaultTarget.h"
#include "app/gui/FindBar.h"
#include "app/gui/MainWindow.h"
#include "app/gui/PanelRegistry.h"
#include "app/gui/PassExplorer.h"
#include "app/gui/PluginManager.h"
#include "app/gui/RunPanel.h"
#include "app/gui/Session.h"
#include "app/gui/SourceEditor.h"

namespace ts::gui {

QAction* MainWindow::addAction(const QString& id, const QString& text, const QString& menuPath,
                               const QKeySequence& shortcut) {
    auto* a = new QAction(text, this);
    a->setObjectName("action." + id);
    a->setProperty("paletteName", menuPath + QStringLiteral(" › ") + QString(text).remove('&'));
    if (!shortcut.isEmpty()) a->setShortcut(shortcut);
    QWidget::addAction(a);  // shortcuts work even when the menu bar is hidden
    m_actions.insert(id, a);
    m_commandOrder << a;
    return a;
}

void MainWindow::createActions() {
    // File
    connect(addAction("file.new", tr("&New"), tr("File"), QKeySequence::New), &QAction::triggered,
            this, &MainWindow::newFile);
    connect(addAction("file.open", tr("&Open…"), tr("File"), QKeySequence::Open),
            &QAction::triggered, this, [this] {
                QString dir = m_session->path().isEmpty() ? samplesDir()
                                                          : QFileInfo(m_session->path()).path();
                QString p = QFileDialog::getOpenFileName(this, tr("Open tile program"), dir,
                                                         tr("Tile programs (*.py);;All files (*)"));
                if (!p.isEmpty()) openFile(p);
            });
    connect(addAction("file.save", tr("&Save"), tr("File"), QKeySequence::Save),
            &QAction::triggered, this, &MainWindow::save);
    connect(addAction("file.saveAs", tr("Save &As…"), tr("File"), QKeySequence("Ctrl+Shift+S")),
            &QAction::triggered, this, &MainWindow::saveAs);
    connect(
        addAction("file.export", tr("&Export Project (nvcc / hipcc)…"), tr("File"), QKeySequence("Ctrl+E")),
        &QAction::triggered, this, &MainWindow::exportProjectInteractive);
    connect(addAction("file.loadMeasuredBanks", tr("Load &Measured Bank Counters…"), tr("File")),
            &QAction::triggered, this, [this] {
                showPanel("banks");
                if (auto* bp = qobject_cast<BankPanel*>(panel("banks"))) bp->promptLoadMeasured();
            });
    connect(addAction("file.quit", tr("&Quit"), tr("File"), QKeySequence::Quit),
            &QAction::triggered, this, &QWidget::close);

    // Edit
    SourceEditor* ed = m_editor;
    connect(addAction("edit.undo", tr("&Undo"), tr("Edit"), QKeySequence::Undo),
            &QAction::triggered, ed, &QsciScintilla::undo);
    connect(addAction("edit.redo", tr("&Redo"), tr("Edit"), QKeySequence("Ctrl+Shift+Z")),
            &QAction::triggered, ed, &QsciScintilla::redo);
    connect(addAction("edit.cut", tr("Cu&t"), tr("Edit"), QKeySequence::Cut), &QAction::triggered,
            ed, &QsciScintilla::cut);
    connect(addAction("edit.copy", tr("&Copy"), tr("Edit"), QKeySequence::Copy),
            &QAction::triggered, ed, &QsciScintilla::copy);
    connect(addAction("edit.paste", tr("&Paste"), tr("Edit"), QKeySequence::Paste),
            &QAction::triggered, ed, &QsciScintilla::paste);
    connect(addAction("edit.selectAll", tr("Select &All"), tr("Edit"), QKeySequence::SelectAll),
            &QAction::triggered, ed, [ed] { ed->selectAll(true); });
    // Editing shortcuts belong to the editor while it has focus (its own key map handles them);
    // the actions carry them for the menus and the palette only.
    for (const char* id :
         {"edit.undo", "edit.redo", "edit.cut", "edit.copy", "edit.paste", "edit.selectAll"})
        m_actions[id]->setShortcutContext(Qt::WidgetShortcut);
    connect(addAction("edit.find", tr("&Find…"), tr("Edit"), QKeySequence::Find),
            &QAction::triggered, m_findBar, &FindBar::activate);
    connect(addAction("edit.findNext", tr("Find &Next"), tr("Edit"), QKeySequence("F3")),
            &QAction::triggered, m_findBar, [this] { m_findBar->find(true); });
    connect(
        addAction("edit.findPrevious", tr("Find Pre&vious"), tr("Edit"), QKeySequence("Shift+F3")),
        &QAction::triggered, m_findBar, [this] { m_findBar->find(false); });
    connect(addAction("edit.gotoLine", tr("&Go to Line…"), tr("Edit"), QKeySequence("Ctrl+G")),
            &QAction::triggered, this, [this] {
                bool ok = false;
                int line = QInputDialog::getInt(this, tr("Go to Line"), tr("Line:"), 1, 1,
                                                std::max(1, m_editor->lines()), 1, &ok);
                if (ok) m_editor->goTo(line);
            });
    connect(addAction("edit.palette", tr("Command &Palette…"), tr("Edit"),
                      QKeySequence("Ctrl+Shift+P")),
            &QAction::triggered, this, &MainWindow::showCommandPalette);
    connect(addAction("edit.resetParams", tr("Reset &Parameters"), tr("Edit")), &QAction::triggered,
            m_session, &Session::resetParams);

    // View
    auto* light = addAction("view.themeLight", tr("&Light Theme"), tr("View"));
    auto* dark = addAction("view.themeDark", tr("&Dark Theme"), tr("View"));
    m_themeGroup = new QActionGroup(this);
    for (auto [a, name] : {std::pair{light, "light"}, std::pair{dark, "dark"}}) {
        a->setCheckable(true);
        a->setData(QString(name));
        m_themeGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, n = QString(name)] { setTheme(n); });
    }
    auto* inlineDiags = addAction("view.inlineDiagnostics", tr("&Inline Diagnostics"), tr("View"));
    inlineDiags->setCheckable(true);
    inlineDiags->setChecked(QSettings().value("inlineDiagnostics", true).toBool());
    m_editor->setInlineDiagnostics(inlineDiags->isChecked());
    connect(inlineDiags, &QAction::toggled, this, [this](bool on) {
        m_editor->setInlineDiagnostics(on);
        QSettings().setValue("inlineDiagnostics", on);
    });
    auto* explorer = qobject_cast<PassExplorer*>(panel("passes"));
    connect(addAction("view.showIr", tr("Show Pass &IR"), tr("View"), QKeySequence("Alt+I")),
            &QAction::triggered, this, [explorer] {
                if (explorer) explorer->setDiffMode(false);
            });
    connect(addAction("view.showDiff", tr("Show Pass Di&ff"), tr("View"), QKeySequence("Alt+D")),
            &QAction::triggered, this, [explorer] {
                if (explorer) explorer->setDiffMode(true);
            });
    connect(addAction("view.unifiedDiff", tr("&Unified Diff"), tr("View")), &QAction::triggered,
            this, [explorer] {
                if (!explorer) return;
                explorer->setDiffMode(true);
                explorer->setUnified(true);
            });
    connect(addAction("view.sideBySideDiff", tr("&Side-by-side Diff"), tr("View")),
            &QAction::triggered, this, [explorer] {
                if (!explorer) return;
                explorer->setDiffMode(true);
                explorer->setUnified(false);
            });
    connect(addAction("view.resetLayout", tr("&Reset Layout"), tr("View")), &QAction::triggered,
            this, &MainWindow::resetLayout);

    // Run
    connect(addAction("run.run", tr("&Run"), tr("Run"), QKeySequence("F5")), &QAction::triggered,
            this, [this] {
                showPanel("run");
                if (auto* rp = qobject_cast<RunPanel*>(panel("run"))) rp->run();
            });
    connect(addAction("run.compile", tr("&Compile Now"), tr("Run"), QKeySequence("Ctrl+B")),
            &QAction::triggered, this, [this] { m_session->requestCompile(0); });
    connect(addAction("run.nextChanged", tr("&Next Changed Pass"), tr("Run"), QKeySequence("F6")),
            &QAction::triggered, this, [this] {
                int i = m_session->neighbourChangedPass(+1);
                if (i >= 0) m_session->selectPass(i);
            });
    connect(addAction("run.previousChanged", tr("&Previous Changed Pass"), tr("Run"),
                      QKeySequence("F7")),
            &QAction::triggered, this, [this] {
                int i = m_session->neighbourChangedPass(-1);
                if (i >= 0) m_session->selectPass(i);
            });
    m_targetGroup = new QActionGroup(this);
    for (const QString& t : codegenTargets()) {
        auto* a = addAction("run.target." + t, tr("Target %1").arg(t), tr("Run"));
        a->setCheckable(true);
        a->setData(t);
        m_targetGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, t] {
            m_session->setTarget(t);
            QSettings().setValue("target", t);  // remembered only when picked (DefaultTarget.h)
        });
    }

    // Help
    connect(addAction("help.shortcuts", tr("&Keyboard Shortcuts"), tr("Help")), &QAction::triggered,
            this, [this] {
                QString html = "<table cellspacing=4>";
                for (QAction* a : m_commandOrder)
                    if (!a->shortcut().isEmpty())
                        html += QString("<tr><td><b>%1</b></td><td>%2</td></tr>")
                                    .arg(a->shortcut().toString(QKeySequence::NativeText),
                                         a->property("paletteName").toString().toHtmlEscaped());
                QMessageBox::information(this, tr("Keyboard Shortcuts"), html + "</table>");
            });
    connect(addAction("help.plugins", tr("&Plugins…"), tr("Help")), &QAction::triggered, this,
            &MainWindow::showPlugins);
    connect(addAction("help.about", tr("&About TileScope"), tr("Help")), &QAction::triggered, this,
            [this] {
                QMessageBox::about(
                    this, tr("About TileScope"),
                    tr("<h3>TileScope</h3><p>An IDE and visual debugger for TileLang tile "
                       "kernels: edit a tile program and watch every compiler pass and the "
                       "generated CUDA change as you type.</p><p>Qt %1 · QScintilla</p>")
                        .arg(qVersion()));
            });
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_actions["file.new"]);
    file->addAction(m_actions["file.open"]);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_samplesMenu = file->addMenu(tr("&Samples"));
    file->addSeparator();
    file->addAction(m_actions["file.save"]);
    file->addAction(m_actions["file.saveAs"]);
    file->addAction(m_actions["file.export"]);
    QMenu* exportWith = file->addMenu(tr("Export &With"));
    for (plugin::Exporter* ex : PluginManager::instance().exporters()) {
        QAction* a = exportWith->addAction(ex->title());
        a->setProperty("paletteName", tr("File › Export With › %1").arg(ex->title()));
        m_commandOrder << a;
        connect(a, &QAction::triggered, this, [this, ex] { exportWithPlugin(ex); });
    }
    if (exportWith->isEmpty())
        exportWith->addAction(tr("(no exporter plugins loaded)"))->setEnabled(false);
    file->addSeparator();
    file->addAction(m_actions["file.loadMeasuredBanks"]);
    file->addSeparator();
    file->addAction(m_actions["file.quit"]);
    rebuildRecentMenu();
    rebuildSamplesMenu();

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    for (const char* id : {"edit.undo", "edit.redo"}) edit->addAction(m_actions[id]);
    edit->addSeparator();
    for (const char* id : {"edit.cut", "edit.copy", "edit.paste", "edit.selectAll"})
        edit->addAction(m_actions[id]);
    edit->addSeparator();
    for (const char* id : {"edit.find", "edit.findNext", "edit.findPrevious", "edit.gotoLine"})
        edit->addAction(m_actions[id]);
    edit->addSeparator();
    edit->addAction(m_actions["edit.resetParams"]);
    edit->addAction(m_actions["edit.palette"]);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    // Workspaces, panels and maximise come first (createWorkspaceUi).
    for (const char* id :
         {"view.showIr", "view.showDiff", "view.sideBySideDiff", "view.unifiedDiff"})
        m_viewMenu->addAction(m_actions[id]);
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_actions["view.themeLight"]);
    m_viewMenu->addAction(m_actions["view.themeDark"]);
    m_viewMenu->addAction(m_actions["view.inlineDiagnostics"]);
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_actions["view.resetLayout"]);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_actions["run.run"]);
    run->addAction(m_actions["run.compile"]);
    run->addSeparator();
    run->addAction(m_actions["run.nextChanged"]);
    run->addAction(m_actions["run.previousChanged"]);
    run->addSeparator();
    QMenu* target = run->addMenu(tr("&Target"));
    for (QAction* a : m_targetGroup->actions()) target->addAction(a);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(m_actions["help.shortcuts"]);
    help->addAction(m_actions["help.plugins"]);
    help->addAction(m_actions["help.about"]);
}

void MainWindow::rebuildRecentMenu() {
    if (!m_recentMenu) return;
    m_recentMenu->clear();
    const QStringList recent = QSettings().value("recentFiles").toStringList();
    for (const QString& p : recent) {
        QAction* a =
            m_recentMenu->addAction(QFileInfo(p).fileName() + "  —  " + QFileInfo(p).path());
        connect(a, &QAction::triggered, this, [this, p] { openFile(p); });
    }
    if (recent.isEmpty()) m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
    m_recentMenu->addSeparator();
    connect(m_recentMenu->addAction(tr("Clear Recent Files")), &QAction::triggered, this, [this] {
        QSettings().remove("recentFiles");
        rebuildRecentMenu();
    });
}

void MainWindow::rebuildSamplesMenu() {
    m_samplesMenu->clear();
    QString dir = samplesDir();
    QStringList files =
        dir.isEmpty() ? QStringList() : QDir(dir).entryList({"*.py"}, QDir::Files, QDir::Name);
    for (const QString& f : files) {
        QString path = QDir(dir).absoluteFilePath(f);
        QAction* a = m_samplesMenu->addAction(f);
        a->setProperty("paletteName", tr("Samples › %1").arg(f));
        connect(a, &QAction::triggered, this, [this, path] { openFile(path); });
        m_commandOrder << a;
    }
    const auto pluginSamples = PluginManager::instance().samples();
    if (!pluginSamples.isEmpty()) m_samplesMenu->addSeparator();
    for (const plugin::SampleInfo& si : pluginSamples) {
        QAction* a = m_samplesMenu->addAction(si.title);
        a->setProperty("paletteName", tr("Samples › %1").arg(si.title));
        connect(a, &QAction::triggered, this, [this, p = si.path] { openFile(p); });
        m_commandOrder << a;
    }
    if (m_samplesMenu->isEmpty())
        m_samplesMenu->addAction(tr("(no samples folder found)"))->setEnabled(false);
}

}  // namespace ts::gui

namespace ts::gui {

void MainWindow::exportProjectInteractive() {
    auto r = m_session->result();
    if (!r || r->cuda.empty()) {
        QMessageBox::information(this, tr("Export"),
                                 tr("Nothing to export yet: the program has no generated code. "
                                    "Fix the errors in Problems first."));
        return;
    }
    QString base =
        m_session->path().isEmpty() ? QDir::homePath() : QFileInfo(m_session->path()).path();
    QString stem = m_session->path().isEmpty() ? QStringLiteral("kernel")
                                               : QFileInfo(m_session->path()).completeBaseName();
    auto target = parseTarget(m_session->target().toStdString());
    // The exporter writes an nvcc or a hipcc project by target; the dialogs name the right one.
    const QString toolchain = target && target->isHip() ? QStringLiteral("hipcc") : QStringLiteral("nvcc");
    QString dir = QFileDialog::getSaveFileName(this, tr("Export %1 project to folder").arg(toolchain),
                                               base + "/" + stem + "_export", QString(), nullptr,
                                               QFileDialog::ShowDirsOnly);
    if (dir.isEmpty()) return;
    std::string error;
    auto files =
        cli::exportProject(*r,
                           {dir.toStdString(), stem.toStdString(), m_session->path().toStdString(),
                            target ? target->arch() : std::string("sm_80")},
                           &error);
    if (files.empty()) {
        QMessageBox::warning(this, tr("Export"), QString::fromStdString(error));
        return;
    }
    QStringList names;
    for (const auto& f : files) names << QString::fromStdString(f);
    QMessageBox::information(
        this, tr("Export"),
        tr("Wrote %1 to %2.\n\nBuild it with `make` (%3) or CMake; run ./%4.")
            .arg(names.join(", "), dir, toolchain, stem));
}

}  // namespace ts::gui

namespace ts::gui {

void MainWindow::exportWithPlugin(plugin::Exporter* ex) {
    auto r = m_session->result();
    if (!r || (r->passes.empty() && r->diagnostics.empty())) {
        QMessageBox::information(this, tr("Export"), tr("Nothing compiled yet."));
        return;
    }
    QString stem = m_session->path().isEmpty() ? QStringLiteral("untitled")
                                               : QFileInfo(m_session->path()).completeBaseName();
    QString base =
        m_session->path().isEmpty() ? QDir::homePath() : QFileInfo(m_session->path()).path();
    QString out = QFileDialog::getSaveFileName(
        this, ex->title(), base + "/" + stem + "_report.html", ex->fileFilter());
    if (out.isEmpty()) return;
    plugin::ExportContext ctx;
    ctx.result = r.get();
    ctx.sourcePath = m_session->path();
    ctx.sourceText = m_session->text();
    ctx.target = m_session->target();
    QString error;
    if (!ex->exportTo(ctx, out, &error))
        QMessageBox::warning(this, tr("Export"), error);
    else
        statusBar()->showMessage(tr("Wrote %1").arg(out), 5000);
}

void MainWindow::showPlugins() {
    QDialog dlg(this);
    dlg.setWindowTitle(tr("Plugins"));
    auto* table = new QTableWidget(&dlg);
    const auto& recs = PluginManager::instance().records();
    table->setColumnCount(5);
    table->setHorizontalHeaderLabels(
        {tr("Plugin"), tr("Id"), tr("Version"), tr("Status"), tr("File")});
    table->setRowCount(int(recs.size()));
    for (int i = 0; i < int(recs.size()); ++i) {
        const PluginRecord& r = recs[i];
        auto set = [&](int col, const QString& text) {
            auto* item = new QTableWidgetItem(text);
            item->setToolTip(col == 0 ? r.description : text);
            table->setItem(i, col, item);
        };
        set(0, r.name);
        set(1, r.id);
        set(2, r.version);
        set(3, r.loaded ? tr("loaded") : tr("not loaded: %1").arg(r.error));
        set(4, r.file);
    }
    table->horizontalHeader()->setStretchLastSection(true);
    table->resizeColumnsToContents();
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto* info = new QLabel(
        tr("Plugins are loaded at start from: %1").arg(PluginManager::searchPath().join(", ")),
        &dlg);
    info->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dlg);
    connect(buttons, &QDialogButtonBox::rejected, &dlg, &QDialog::reject);
    auto* lay = new QVBoxLayout(&dlg);
    lay->addWidget(table);
    lay->addWidget(info);
    lay->addWidget(buttons);
    dlg.resize(820, 320);
    if (recs.isEmpty()) table->hide();
    dlg.exec();
}

}  // namespace ts::gui
