// Pass list + IR / diff view (PassExplorer.h).
#include "app/gui/PassExplorer.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QResizeEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <Qsci/qscilexerpython.h>

#include "app/gui/CodeView.h"
#include "app/gui/FlowLayout.h"
#include "app/gui/PassListModel.h"
#include "app/gui/Session.h"
#include "app/gui/Theme.h"
#include "compiler/ir/Printer.h"
#include "visualizer/core/CrossRef.h"
#include "visualizer/widgets/DiffView.h"

namespace ts::gui {
namespace {

QToolButton* toggle(const QString& text, const QString& tip, QWidget* parent) {
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setToolTip(tip);
    b->setCheckable(true);
    b->setAutoRaise(true);
    b->setToolButtonStyle(Qt::ToolButtonTextOnly);
    return b;
}

std::vector<Span> spansOf(const PassSnapshot& p) {
    std::vector<Span> s;
    s.reserve(p.lines.size());
    for (const auto& o : p.lines) s.push_back(o.span);
    return s;
}

}  // namespace

PassExplorer::PassExplorer(Session& session, QWidget* parent)
    : QWidget(parent), m_session(session) {
    m_model = new PassListModel(session, this);
    m_proxy = new PassFilterProxy(this);
    m_proxy->setSourceModel(m_model);

    // --- list + filters -------------------------------------------------------------------
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Search passes"));
    m_search->setClearButtonEnabled(true);
    m_hideUnchanged = new QCheckBox(tr("Hide unchanged"), this);
    m_list = new QTableView(this);
    m_list->setModel(m_proxy);
    m_list->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_list->verticalHeader()->hide();
    m_list->setShowGrid(false);
    m_list->setWordWrap(false);
    auto* hh = m_list->horizontalHeader();
    hh->setSectionResizeMode(PassListModel::Index, QHeaderView::ResizeToContents);
    hh->setSectionResizeMode(PassListModel::Name, QHeaderView::Stretch);
    hh->setSectionResizeMode(PassListModel::Time, QHeaderView::ResizeToContents);
    hh->setSectionResizeMode(PassListModel::Changed, QHeaderView::ResizeToContents);
    hh->setHighlightSections(false);
    m_list->verticalHeader()->setDefaultSectionSize(m_list->fontMetrics().height() + 6);

    m_staleBanner = new QLabel(this);
    m_staleBanner->setWordWrap(true);
    m_staleBanner->setText(
        tr("The current text has errors: showing the passes of the last "
           "successful compile."));
    m_staleBanner->setContentsMargins(6, 3, 6, 3);
    m_staleBanner->setAutoFillBackground(true);
    m_staleBanner->hide();

    auto* listBox = new QWidget(this);
    auto* listLay = new QVBoxLayout(listBox);
    listLay->setContentsMargins(0, 0, 0, 0);
    listLay->setSpacing(4);
    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(m_search, 1);
    filterRow->addWidget(m_hideUnchanged);
    listLay->addWidget(m_staleBanner);
    listLay->addLayout(filterRow);
    listLay->addWidget(m_list, 1);

    // --- header of the IR area --------------------------------------------------------------
    m_title = new QLabel(this);
    QFont tf = m_title->font();
    tf.setBold(true);
    m_title->setFont(tf);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_irButton = toggle(tr("IR"), tr("The IR after the selected pass"), this);
    m_diffButton = toggle(tr("Diff"), tr("What the selected pass changed"), this);
    auto* modeGroup = new QButtonGroup(this);
    modeGroup->addButton(m_irButton);
    modeGroup->addButton(m_diffButton);
    m_irButton->setChecked(true);
    m_sideButton = toggle(tr("Side by side"), tr("Old and new IR next to each other"), this);
    m_unifiedButton = toggle(tr("Unified"), tr("Removed lines above added lines"), this);
    auto* layoutGroup = new QButtonGroup(this);
    layoutGroup->addButton(m_sideButton);
    layoutGroup->addButton(m_unifiedButton);
    m_sideButton->setChecked(true);
    m_against = new QComboBox(this);
    m_against->setToolTip(tr("The pass whose IR the diff starts from"));
    m_against->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_against->setMinimumContentsLength(13);
    m_diffStats = new QLabel(this);
    m_prevChanged = new QToolButton(this);
    m_prevChanged->setArrowType(Qt::UpArrow);
    m_prevChanged->setAutoRaise(true);
    m_prevChanged->setToolTip(tr("Previous pass that changed the IR (F7)"));
    m_nextChanged = new QToolButton(this);
    m_nextChanged->setArrowType(Qt::DownArrow);
    m_nextChanged->setAutoRaise(true);
    m_nextChanged->setToolTip(tr("Next pass that changed the IR (F6)"));

    // Wraps in a narrow dock instead of widening it (FlowLayout.h).
    auto* bar = new FlowLayout(nullptr, 2, 2);
    bar->addGroup({m_irButton, m_diffButton});
    bar->addSpacing(8);
    bar->addGroup({new QLabel(tr("against"), this), m_against});
    bar->addSpacing(8);
    bar->addGroup({m_sideButton, m_unifiedButton});
    bar->addSpacing(8);
    bar->addWidget(m_diffStats);
    bar->addStretch();
    bar->addGroup({m_prevChanged, m_nextChanged});

    m_ir = new CodeView(CodeView::Language::Python, this);
    m_diff = new viz::DiffView(this);
    for (QsciScintilla* v : {m_diff->left(), m_diff->right(), m_diff->unifiedView()})
        v->setLexer(new QsciLexerPython(v));
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_ir);
    m_stack->addWidget(m_diff);

    auto* irBox = new QWidget(this);
    auto* irLay = new QVBoxLayout(irBox);
    irLay->setContentsMargins(0, 0, 0, 0);
    irLay->setSpacing(2);
    irLay->addWidget(m_title);
    irLay->addWidget(m_summary);
    irLay->addLayout(bar);
    irLay->addWidget(m_stack, 1);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(listBox);
    split->addWidget(irBox);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    split->setChildrenCollapsible(false);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    lay->addWidget(split);

    auto applyDiffTheme = [this] {
        const Theme& t = theme();
        styleDiffView(m_diff);
        QPalette p = m_staleBanner->palette();
        p.setColor(QPalette::Window, t.dark ? QColor("#4a3f1c") : QColor("#fff4ce"));
        p.setColor(QPalette::WindowText, t.text);
        m_staleBanner->setPalette(p);
    };
    applyDiffTheme();
    connect(&ThemeManager::instance(), &ThemeManager::themeChanged, this, applyDiffTheme);

    // --- wiring -----------------------------------------------------------------------------
    connect(m_search, &QLineEdit::textChanged, m_proxy, &PassFilterProxy::setSearch);
    connect(m_hideUnchanged, &QCheckBox::toggled, this, [this](bool on) {
        m_proxy->setHideUnchanged(on);
        selectRowForPass(m_session.selectedPass());
    });
    connect(m_list->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& cur) {
                if (m_syncingSelection || !cur.isValid()) return;
                QModelIndex src = m_proxy->mapToSource(cur);
                if (src.data(PassListModel::RanRole).toBool()) m_session.selectPass(src.row());
            });
    setDiffMode(false);
    connect(m_irButton, &QToolButton::toggled, this, [this](bool on) { setDiffMode(!on); });
    connect(m_unifiedButton, &QToolButton::toggled, this, [this](bool on) { applyUnified(on); });
    connect(layoutGroup, &QButtonGroup::buttonClicked, this, [this] { m_layoutChosen = true; });
    connect(m_against, &QComboBox::activated, this,
            [this](int i) { m_session.setComparePass(m_against->itemData(i).toInt()); });
    connect(m_prevChanged, &QToolButton::clicked, this,
            [this] { m_session.selectPass(m_session.neighbourChangedPass(-1)); });
    connect(m_nextChanged, &QToolButton::clicked, this,
            [this] { m_session.selectPass(m_session.neighbourChangedPass(+1)); });
    connect(m_ir, &CodeView::lineClicked, this, [this](int line) {
        auto r = m_session.shown();
        int p = m_session.selectedPass();
        if (!r || p < 0) return;
        const auto& lines = r->passes[p].lines;
        if (line < int(lines.size()) && lines[line].span.valid())
            m_session.setFocus(lines[line].span, FocusOrigin::Ir);
    });
    connect(m_diff, &viz::DiffView::lineClicked, this, [this](int, int newLine) {
        auto r = m_session.shown();
        int p = m_session.selectedPass();
        if (!r || p < 0 || newLine < 0) return;
        const auto& lines = r->passes[p].lines;
        if (newLine < int(lines.size()) && lines[newLine].span.valid())
            m_session.setFocus(lines[newLine].span, FocusOrigin::Ir);
    });

    connect(&session, &Session::resultChanged, this, &PassExplorer::onResult);
    connect(&session, &Session::passSelected, this, &PassExplorer::onPassSelected);
    connect(&session, &Session::comparePassChanged, this, [this] { showSelected(); });
    connect(&session, &Session::focusChanged, this, &PassExplorer::updateCrossHighlight);
    showSelected();
}

void PassExplorer::onResult() {
    m_staleBanner->setVisible(m_session.shownIsStale());
    updateCompareCombo();
    selectRowForPass(m_session.selectedPass());
    showSelected();
}

void PassExplorer::onPassSelected(int index) {
    selectRowForPass(index);
    showSelected();
}

void PassExplorer::selectRowForPass(int index) {
    m_syncingSelection = true;
    QModelIndex src = m_model->index(index, 0);
    QModelIndex px = m_proxy->mapFromSource(src);
    if (px.isValid()) {
        m_list->selectionModel()->setCurrentIndex(
            px, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_list->scrollTo(px);
    } else {
        m_list->selectionModel()->clearSelection();
    }
    m_syncingSelection = false;
}

void PassExplorer::updateCompareCombo() {
    auto r = m_session.shown();
    m_against->blockSignals(true);
    m_against->clear();
    m_against->addItem(tr("previous pass"), -1);
    m_against->addItem(tr("elaborated input"), -2);
    if (r)
        for (size_t i = 0; i < r->passes.size(); ++i)
            m_against->addItem(
                QString("%1. %2").arg(i + 1).arg(QString::fromStdString(r->passes[i].name)),
                int(i));
    int idx = m_against->findData(m_session.comparePass());
    m_against->setCurrentIndex(idx < 0 ? 0 : idx);
    m_against->blockSignals(false);
}

void PassExplorer::showSelected() {
    auto r = m_session.shown();
    int p = m_session.selectedPass();
    bool have = r && p >= 0 && p < int(r->passes.size());
    m_prevChanged->setEnabled(m_session.neighbourChangedPass(-1) >= 0);
    m_nextChanged->setEnabled(m_session.neighbourChangedPass(+1) >= 0);
    if (!have) {
        m_title->setText(r && r->passes.empty() ? tr("No passes ran (see Problems)")
                                                : tr("No pass selected"));
        m_summary->clear();
        m_ir->setCode(QString(), false);
        m_diff->setDiff({}, {}, {});
        m_diffStats->clear();
        return;
    }
    const PassSnapshot& snap = r->passes[p];
    QString name = QString::fromStdString(snap.name);
    m_title->setText(tr("%1. %2  ·  %3")
                         .arg(p + 1)
                         .arg(name)
                         .arg(snap.changed ? tr("changed the IR") : tr("no change")));
    QString summary = QString::fromStdString(snap.summary);
    if (!snap.diagnostics.empty())
        summary += tr("  (%n diagnostic(s))", "", int(snap.diagnostics.size()));
    m_summary->setText(summary);
    m_summary->setVisible(!summary.isEmpty());
    m_ir->setCode(QString::fromStdString(snap.ir));

    // Diff base: the chosen pass, else the previous one; before the first pass (or on request)
    // the elaborated input IR, printed by the compiler's own printer.
    int base = m_session.comparePass();
    if (base == -1 || base >= int(r->passes.size())) base = p - 1;
    std::string oldText;
    QString oldTitle;
    if (base >= 0) {
        oldText = r->passes[base].ir;
        oldTitle = tr("after %1").arg(QString::fromStdString(r->passes[base].name));
    } else {
        if (m_elaboratedFor != r.get()) {
            m_elaboratedFor = r.get();
            m_elaboratedText = r->elaborated ? ir::print(r->elaborated).text : std::string();
        }
        oldText = m_elaboratedText;
        oldTitle = tr("elaborated input");
    }
    viz::TextDiff d = viz::diffTexts(oldText, snap.ir);
    m_diffStats->setText(
        d.identical()
            ? tr("identical")
            : tr("<span style='color:%1'>+%2</span> <span style='color:%3'>−%4</span> ~%5")
                  .arg(theme().success.name())
                  .arg(d.inserted)
                  .arg(theme().error.name())
                  .arg(d.deleted)
                  .arg(d.changed));
    m_diff->setDiff(std::move(d), oldTitle, tr("after %1").arg(name));
    updateCrossHighlight();
}

void PassExplorer::updateCrossHighlight() {
    auto r = m_session.shown();
    int p = m_session.selectedPass();
    if (!r || p < 0 || p >= int(r->passes.size())) return;
    const Focus& f = m_session.focus();
    std::vector<Span> spans = spansOf(r->passes[p]);
    std::vector<int> lines;
    if (f.origin == FocusOrigin::Source)
        lines = viz::linesForSourceLine(spans, f.span.line);
    else if (f.origin != FocusOrigin::None)
        lines = viz::linesWithinSpan(spans, f.span);
    m_ir->setHighlightedLines(lines, f.origin != FocusOrigin::Ir);
}

void PassExplorer::setDiffMode(bool diff) {
    m_stack->setCurrentIndex(diff ? 1 : 0);
    if (m_diffButton->isChecked() != diff) (diff ? m_diffButton : m_irButton)->setChecked(true);
    for (QWidget* w : {static_cast<QWidget*>(m_sideButton), static_cast<QWidget*>(m_unifiedButton),
                       static_cast<QWidget*>(m_against), static_cast<QWidget*>(m_diffStats)})
        w->setEnabled(diff);
}

bool PassExplorer::diffMode() const { return m_stack->currentIndex() == 1; }

void PassExplorer::setUnified(bool unified) {
    m_layoutChosen = true;
    applyUnified(unified);
}

bool PassExplorer::isUnified() const { return m_diff->mode() == viz::DiffView::Mode::Unified; }

void PassExplorer::applyUnified(bool unified) {
    m_diff->setMode(unified ? viz::DiffView::Mode::Unified : viz::DiffView::Mode::SideBySide);
    if (m_unifiedButton->isChecked() != unified)
        (unified ? m_unifiedButton : m_sideButton)->setChecked(true);
}

void PassExplorer::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    if (!m_layoutChosen) applyUnified(width() < kSideBySideMinWidth);
}

}  // namespace ts::gui
