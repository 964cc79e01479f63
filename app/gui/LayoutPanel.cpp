// Layout panel (LayoutPanel.h).
#include "app/gui/LayoutPanel.h"

#include <QComboBox>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QStyle>
#include <QToolButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>
#include <map>

#include "app/gui/FlowLayout.h"
#include "app/gui/Session.h"
#include "compiler/analysis/LoopLayouts.h"
#include "compiler/analysis/HwLayouts.h"
#include "visualizer/core/Svg.h"
#include "visualizer/widgets/LayoutGridWidget.h"
#include "visualizer/widgets/ZoomBar.h"

namespace ts::gui {

LayoutPanel::LayoutPanel(Session& session, QWidget* parent) : QWidget(parent), m_session(session) {
    setObjectName("LayoutPanel");
    auto* top = new FlowLayout;  // wraps in a narrow dock (FlowLayout.h)
    m_buffer = new QComboBox;
    m_buffer->setObjectName("layoutBuffer");
    m_tile = new QSpinBox;
    m_tile->setPrefix(tr("stage "));
    m_warp = new QSpinBox;
    m_warp->setRange(-1, 31);
    m_warp->setSpecialValueText(tr("no warp"));
    m_warp->setPrefix(tr("warp "));
    m_warp->setValue(-1);
    auto* svg = new QPushButton(tr("SVG…"));
    auto* png = new QPushButton(tr("PNG…"));
    m_zoom = new viz::ZoomBar;
    m_zoom->fitButton()->setObjectName("layoutFit");
    m_zoom->fitButton()->setToolTip(tr("Fit every column to the panel's width (+/-, Ctrl + wheel "
                                       "or the buttons zoom by hand; drag to pan)"));
    m_buffer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    top->addGroup({new QLabel(tr("Buffer")), m_buffer}, true);
    top->addGroup({m_tile, m_warp});
    top->addGroup({m_zoom, svg, png});
    m_info = new QLabel;
    m_info->setWordWrap(true);
    m_grid = new viz::LayoutGridWidget;
    m_scroll = new QScrollArea;
    m_scroll->setWidget(m_grid);
    m_scroll->setWidgetResizable(false);
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    v->addLayout(top);
    v->addWidget(m_info);
    v->addWidget(m_scroll, 1);
    m_scroll->viewport()->installEventFilter(this);  // refit when the panel is resized
    connect(m_zoom, &viz::ZoomBar::fitToggled, this, [this](bool on) {
        if (on) fit();
    });
    connect(m_zoom, &viz::ZoomBar::zoomIn, this, [this] { m_grid->zoomBy(true); });
    connect(m_zoom, &viz::ZoomBar::zoomOut, this, [this] { m_grid->zoomBy(false); });
    connect(m_zoom, &viz::ZoomBar::zoomReset, this, [this] { m_grid->resetZoom(); });
    connect(m_grid, &viz::LayoutGridWidget::zoomedByUser, this, [this] {
        setFitToView(false);
        updateCaption();
    });

    connect(m_buffer, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
    connect(m_tile, &QSpinBox::valueChanged, this, [this] { rebuild(); });
    connect(m_warp, &QSpinBox::valueChanged, this, [this](int w) { m_grid->setSelectedWarp(w); });
    connect(m_grid, &viz::LayoutGridWidget::cellClicked, this, [this](qint64 r, qint64 c) {
        if (m_grid->model())
            m_info->setText(QString::fromStdString(m_grid->model()->describe(r, c)));
    });
    connect(svg, &QPushButton::clicked, this, [this] {
        QString p = QFileDialog::getSaveFileName(this, tr("Export layout as SVG"),
                                                 exportStem() + ".svg", "SVG (*.svg)");
        if (!p.isEmpty()) exportSvg(p);
    });
    connect(png, &QPushButton::clicked, this, [this] {
        QString p = QFileDialog::getSaveFileName(this, tr("Export layout as PNG"),
                                                 exportStem() + ".png", "PNG (*.png)");
        if (!p.isEmpty()) exportPng(p);
    });
    connect(&m_session, &Session::resultChanged, this, [this] { refreshBuffers(); });
    connect(&m_session, &Session::focusChanged, this, [this] { onFocus(); });
    refreshBuffers();
}

namespace {
/// Hardware entries: one per catalogue layout, wgmma at a few instruction widths.
QStringList hardwareSpecs() {
    QStringList out;
    for (auto& b : analysis::builtinLayouts()) {
        QString name = QString::fromStdString(b.name);
        if (b.name == "wgmma_c")
            out << name + ":16" << name + ":64" << name + ":128" << name + ":256";
        else
            out << name;
    }
    return out;
}
const QString kHwPrefix = QStringLiteral("hardware: ");
}  // namespace

QStringList LayoutPanel::buffers() const {
    QStringList out;
    for (int i = 0; i < m_buffer->count(); ++i)
        if (!m_buffer->itemText(i).isEmpty() && m_buffer->itemData(i).toString().isEmpty())
            out << m_buffer->itemText(i);
    return out;
}

QStringList LayoutPanel::hardwareLayouts() const {
    QStringList out;
    for (int i = 0; i < m_buffer->count(); ++i)
        if (!m_buffer->itemData(i).toString().isEmpty()) out << m_buffer->itemData(i).toString();
    return out;
}

QString LayoutPanel::currentBuffer() const {
    return m_buffer->currentData().toString().isEmpty() ? m_buffer->currentText() : QString();
}

bool LayoutPanel::selectBuffer(const QString& name) {
    int i = m_buffer->findText(name);
    if (i < 0 || !m_buffer->itemData(i).toString().isEmpty()) return false;
    m_buffer->setCurrentIndex(i);
    return true;
}

bool LayoutPanel::selectHardwareLayout(const QString& spec) {
    int i = m_buffer->findData(spec);
    if (i < 0) return false;
    m_buffer->setCurrentIndex(i);
    return true;
}

QString LayoutPanel::exportStem() const {
    QString spec = m_buffer->currentData().toString();
    return spec.isEmpty() ? currentBuffer() : QString(spec).replace(':', '_');
}

void LayoutPanel::refreshBuffers() {
    QString keep = m_buffer->currentText();
    QStringList names;
    if (auto r = m_session.shown(); r && r->lowered)
        for (const std::string& name : analysis::layoutKeysInListOrder(r->lowered->layouts))  // buffers first
            names << QString::fromStdString(name);
    if (names == buffers() && m_buffer->count() > 0) return rebuild();
    QSignalBlocker block(m_buffer);
    m_buffer->clear();
    m_buffer->addItems(names);
    if (!names.isEmpty()) m_buffer->insertSeparator(m_buffer->count());
    std::map<std::string, std::string> summaries;
    for (auto& b : analysis::builtinLayouts()) summaries[b.name] = b.summary;
    for (const QString& spec : hardwareSpecs()) {
        m_buffer->addItem(kHwPrefix + spec, spec);
        m_buffer->setItemData(
            m_buffer->count() - 1,
            QString::fromStdString(summaries[spec.section(':', 0, 0).toStdString()]),
            Qt::ToolTipRole);
    }
    int i = m_buffer->findText(keep);
    m_buffer->setCurrentIndex(i >= 0 && !keep.isEmpty() ? i : names.isEmpty() ? -1 : 0);
    rebuild();
}

bool LayoutPanel::fitToView() const { return m_zoom->fit(); }

void LayoutPanel::setFitToView(bool on) { m_zoom->setFit(on); }

void LayoutPanel::fit() {
    if (!fitToView() || !m_grid->model()) return;
    // The width inside the scroll area, less a vertical scroll bar when the rows need one.
    int width = m_scroll->viewport()->width();
    const int sb = m_scroll->verticalScrollBar()->isVisible()
                       ? 0
                       : m_scroll->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    const int64_t cols = m_grid->model()->cols(), rows = m_grid->model()->rows();
    int cell = viz::LayoutGridWidget::cellSizeToFit(width, cols);
    if (18 + rows * cell + 4 > m_scroll->viewport()->height())  // rows scroll: room for the bar
        cell = viz::LayoutGridWidget::cellSizeToFit(width - sb, cols);
    if (cell != m_grid->cellSize()) m_grid->setCellSize(cell);
    updateCaption();
}

bool LayoutPanel::eventFilter(QObject* o, QEvent* e) {
    if (o == m_scroll->viewport() && e->type() == QEvent::Resize) fit();
    return QWidget::eventFilter(o, e);
}

void LayoutPanel::setPanelShown(bool shown) {
    m_shown = shown;
    if (shown && m_stale) rebuild();
}

void LayoutPanel::rebuild() {
    if (!m_shown) {
        m_stale = true;
        return;
    }
    m_stale = false;
    if (QString spec = m_buffer->currentData().toString(); !spec.isEmpty())
        return rebuildHardware(spec);
    auto r = m_session.shown();
    if (!r || !r->lowered || currentBuffer().isEmpty()) {
        m_grid->setModel(std::nullopt);
        m_info->setText(
            tr("No layouts yet: compile a kernel that allocates shared tiles or fragments."));
        return;
    }
    std::string name = currentBuffer().toStdString(), why;
    auto it = r->lowered->layouts.find(name);
    int64_t stages = 1;
    if (it != r->lowered->layouts.end() && it->second && it->second->shape.size() >= 3)
        stages = it->second->shape[0];
    {
        QSignalBlocker b(m_tile);
        m_tile->setRange(0, int(stages - 1));
        m_tile->setVisible(stages > 1);
    }
    auto m = viz::LayoutGridModel::fromFunction(r->lowered, name, &why, m_tile->value());
    if (!m) {
        m_caption.clear();
        m_info->setText(QString::fromStdString(why));
        m_grid->setModel(std::nullopt);
        return;
    }
    m_caption = QString::fromStdString(m->description()) +
                (m->isShared() ? tr("  — cells: physical offset / bank; click a cell to outline its bank")
                               : tr("  — cells: thread / local index; click a cell to outline its thread"));
    m_grid->setModel(std::move(m));
    fit();
    updateCaption();
}

void LayoutPanel::updateCaption() {
    if (m_caption.isEmpty() || !m_grid->model()) return;
    // Fit shrinks a wide tile's cells below the size its labels need (the colours still show
    // the pattern): say so, rather than promise labels the picture does not have.
    m_info->setText(m_caption + (m_grid->labelsShown() ? QString() : tr(" (labels from 18 px cells on: zoom in to read them)")));
}

void LayoutPanel::rebuildHardware(const QString& spec) {
    m_tile->setVisible(false);
    std::string why;
    auto l = analysis::makeBuiltinLayout(spec.toStdString(), {}, {}, &why);
    if (!l) {
        m_caption.clear();
        m_info->setText(QString::fromStdString(why));
        m_grid->setModel(std::nullopt);
        return;
    }
    auto m = viz::LayoutGridModel::fromLayout(l, 4, 0, 0, spec.toStdString());
    m_caption = QString::fromStdString(m.description()) +
                tr("  — hardware layout (tilec layout --builtin %1); cells: thread / local "
                   "(register) index; "
                   "click a cell to outline its thread")
                    .arg(spec);
    m_grid->setModel(std::move(m));
    fit();
    updateCaption();
}

void LayoutPanel::onFocus() {
    // A focused source line that mentions a buffer with a layout selects it.
    auto r = m_session.shown();
    const Span& s = m_session.focus().span;
    if (!r || !s.valid()) return;
    QStringList lines = m_session.text().split('\n');
    if (s.line == 0 || int(s.line) > lines.size()) return;
    const QString& line = lines[int(s.line) - 1];
    for (const QString& b : buffers())
        if (line.contains(QRegularExpression("\\b" + QRegularExpression::escape(b) + "\\b"))) {
            selectBuffer(b);
            return;
        }
}

bool LayoutPanel::exportSvg(const QString& path) const {
    if (!m_grid->model()) return false;
    viz::SvgOptions o;
    o.highlightThread = m_grid->selectedThread();
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return false;
    return f.write(QByteArray::fromStdString(viz::layoutToSvg(*m_grid->model(), o))) > 0;
}

bool LayoutPanel::exportPng(const QString& path) const { return m_grid->grab().save(path, "PNG"); }

}  // namespace ts::gui
