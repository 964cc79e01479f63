// Factory parameters: model and panel (ParamsPanel.h).
#include "app/gui/ParamsPanel.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include "app/gui/Session.h"
#include "app/gui/Theme.h"
#include "compiler/support/ParamPragma.h"

namespace ts::gui {

ParamsModel::ParamsModel(Session& session, QObject* parent)
    : QAbstractTableModel(parent), m_session(session) {
    connect(&session, &Session::resultChanged, this, &ParamsModel::refresh);
    connect(&session, &Session::documentOpened, this, [this] {
        beginResetModel();
        m_params.clear();
        endResetModel();
    });
}

void ParamsModel::refresh() {
    auto r = m_session.result();
    // A compile that failed before reading the factory has no params: keep showing the last
    // known ones so the user can still fix a value that broke the compile.
    if (!r || (r->params.empty() && !r->ok && !m_params.empty())) {
        // Refresh the "value" column from the pragma so edits still show.
        auto over = m_session.paramOverrides();
        for (auto& p : m_params) {
            auto it = over.find(p.name);
            p.overridden = it != over.end();
            p.value = p.overridden ? it->second : p.defaultValue;
        }
        if (!m_params.empty())
            emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_params = r->params;
    endResetModel();
}

int ParamsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_params.size());
}

int ParamsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ParamsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(m_params.size())) return {};
    const FactoryParam& p = m_params[index.row()];
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (index.column()) {
            case Name:
                return QString::fromStdString(p.name);
            case Default:
                return p.defaultValue.empty() ? QStringLiteral("—")
                                              : QString::fromStdString(p.defaultValue);
            case Value:
                return QString::fromStdString(p.value);
        }
    }
    if (role == Qt::FontRole && index.column() == Value && p.overridden) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::ForegroundRole && index.column() == Default) return theme().dim;
    if (role == Qt::ToolTipRole) {
        if (index.column() == Value)
            return p.overridden ? QStringLiteral(
                                      "Set in this file's # tilescope: line; clear the "
                                      "cell to go back to the default")
                                : QStringLiteral("The factory's default; edit to override");
        if (index.column() == Default && p.defaultValue.empty())
            return QStringLiteral("No default: a value is required");
    }
    return {};
}

QVariant ParamsModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Name:
            return QStringLiteral("Parameter");
        case Default:
            return QStringLiteral("Default");
        case Value:
            return QStringLiteral("Value");
    }
    return {};
}

Qt::ItemFlags ParamsModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.column() == Value) f |= Qt::ItemIsEditable;
    return f;
}

bool ParamsModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || index.column() != Value || index.row() >= int(m_params.size()))
        return false;
    FactoryParam& p = m_params[index.row()];
    std::string v = value.toString().trimmed().toStdString();
    if (v == p.defaultValue) v.clear();
    p.overridden = !v.empty();
    p.value = v.empty() ? p.defaultValue : v;
    emit dataChanged(index, index);
    m_session.setParam(p.name, v);
    return true;
}

ParamsPanel::ParamsPanel(Session& session, QWidget* parent) : QWidget(parent), m_session(session) {
    m_model = new ParamsModel(session, this);
    m_kernelRow = new QWidget(this);
    m_kernel = new QComboBox(m_kernelRow);
    m_kernel->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_kernel->setToolTip(
        tr("The kernel of this file to compile; every panel shows it. Stored "
           "as @kernel= in the file's # tilescope: line (tilec uses it too)"));
    auto* kernelLabel = new QLabel(tr("Kernel"), m_kernelRow);
    kernelLabel->setBuddy(m_kernel);
    auto* kernelLay = new QHBoxLayout(m_kernelRow);
    kernelLay->setContentsMargins(0, 0, 0, 0);
    kernelLay->addWidget(kernelLabel);
    kernelLay->addWidget(m_kernel, 1);
    m_kernelRow->hide();
    connect(m_kernel, &QComboBox::activated, this,
            [this](int i) { m_session.setKernel(m_kernel->itemData(i).toString().toStdString()); });
    connect(&session, &Session::resultChanged, this, &ParamsPanel::refreshKernels);
    m_view = new QTableView(this);
    m_view->setModel(m_model);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setSectionResizeMode(ParamsModel::Name,
                                                     QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(ParamsModel::Default,
                                                     QHeaderView::ResizeToContents);
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                            QAbstractItemView::AnyKeyPressed | QAbstractItemView::SelectedClicked);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->setFont(ThemeManager::instance().codeFont());
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);

    m_info = new QLabel(this);
    m_info->setWordWrap(true);
    auto* reset = new QPushButton(tr("Reset to defaults"), this);
    reset->setToolTip(tr("Remove this file's # tilescope: parameter line"));
    connect(reset, &QPushButton::clicked, &session, &Session::resetParams);

    auto* bottom = new QHBoxLayout;
    bottom->addWidget(m_info, 1);
    bottom->addWidget(reset);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    lay->addWidget(m_kernelRow);
    lay->addWidget(m_view, 1);
    lay->addLayout(bottom);

    auto updateInfo = [this] {
        auto r = m_session.result();
        int n = int(pragmaParamValues(m_session.paramOverrides()).size());
        QString s = n ? tr("%n value(s) stored in the file's # tilescope: line", "", n)
                      : tr("Defaults (edit a value to override it)");
        if (r && r->flops && *r->flops > 0) s += tr(" · %1 GFLOP").arg(*r->flops / 1e9, 0, 'g', 4);
        m_info->setText(s);
    };
    connect(&session, &Session::resultChanged, this, updateInfo);
    connect(&session, &Session::textReplaced, this, updateInfo);
    updateInfo();
}

void ParamsPanel::refreshKernels() {
    auto r = m_session.result();
    // A file that failed to parse has no list: keep the last one so the choice stays visible.
    if (!r || r->kernels.empty()) return;
    QSignalBlocker block(m_kernel);
    m_kernel->clear();
    for (const ProgramKernel& k : r->kernels) {
        QString label = QString::fromStdString(k.name);
        if (k.isDefault) label += tr("  (default)");
        m_kernel->addItem(label, QString::fromStdString(k.name));
        QString params = k.params.empty() ? tr("none") : QString();
        for (const auto& p : k.params)
            params += (params.isEmpty() ? "" : ", ") + QString::fromStdString(p);
        m_kernel->setItemData(m_kernel->count() - 1,
                              tr("%1 at line %2 · parameters: %3")
                                  .arg(QString::fromStdString(k.pattern))
                                  .arg(k.span.line)
                                  .arg(params),
                              Qt::ToolTipRole);
    }
    // The compiled kernel, else (an unknown @kernel) the one the pragma asks for, shown as is.
    int current = r->selectedKernel;
    const std::string wanted = m_session.kernel();
    for (size_t i = 0; current < 0 && i < r->kernels.size(); ++i)
        if (wanted.empty() ? r->kernels[i].isDefault : r->kernels[i].name == wanted)
            current = int(i);
    if (current < 0) {
        m_kernel->addItem(tr("%1 (not in this file)").arg(QString::fromStdString(wanted)),
                          QString::fromStdString(wanted));
        current = m_kernel->count() - 1;
    }
    m_kernel->setCurrentIndex(current);
    m_kernelRow->setVisible(m_kernel->count() > 1);
}

}  // namespace ts::gui
