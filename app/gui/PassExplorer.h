// The pass explorer panel: the pass list (PassListModel, filterable) above the selected pass's
// IR (a CodeView) or its diff (viz::DiffView) against the previous pass or any chosen pass, side
// by side or unified. It follows the Session's selected pass and compare pass, cross-highlights
// the IR lines of the focused source span, and reports IR clicks back as the new focus.
#pragma once
#include <QWidget>
#include <string>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;
class QTableView;
class QToolButton;

namespace ts::viz {
class DiffView;
}

namespace ts::gui {

class CodeView;
class PassFilterProxy;
class PassListModel;
class Session;

class PassExplorer : public QWidget {
    Q_OBJECT
public:
    explicit PassExplorer(Session& session, QWidget* parent = nullptr);

    /// Shows the IR (false) or the diff (true).
    void setDiffMode(bool diff);
    bool diffMode() const;
    /// Side by side (false) or unified (true) diff: the user's choice (buttons, screenshot
    /// --unified), kept from then on. Until one is made the layout follows the width: side by
    /// side where each side gets at least kSideBySideMinWidth / 2 px, unified in a narrower
    /// dock (side-by-side panes of ~280 px cut most IR lines; issue 15).
    void setUnified(bool unified);
    bool isUnified() const;
    /// Whether the diff layout was chosen (setUnified or a button) rather than automatic.
    bool diffLayoutChosen() const { return m_layoutChosen; }
    static constexpr int kSideBySideMinWidth = 960;

    // Accessors for tests and the main window.
    PassListModel* model() const { return m_model; }
    PassFilterProxy* proxy() const { return m_proxy; }
    CodeView* irView() const { return m_ir; }
    viz::DiffView* diffView() const { return m_diff; }
    QTableView* listView() const { return m_list; }

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    void applyUnified(bool unified);
    void onResult();
    void onPassSelected(int index);
    void showSelected();
    void updateCompareCombo();
    void updateCrossHighlight();
    void selectRowForPass(int index);

    Session& m_session;
    PassListModel* m_model;
    PassFilterProxy* m_proxy;
    QTableView* m_list;
    QLineEdit* m_search;
    QCheckBox* m_hideUnchanged;
    QLabel* m_staleBanner;
    QLabel* m_title;
    QLabel* m_summary;
    QToolButton *m_irButton, *m_diffButton, *m_sideButton, *m_unifiedButton;
    QToolButton *m_prevChanged, *m_nextChanged;
    QComboBox* m_against;
    QLabel* m_diffStats;
    QStackedWidget* m_stack;
    CodeView* m_ir;
    viz::DiffView* m_diff;
    bool m_syncingSelection = false;
    bool m_layoutChosen = false;
    const void* m_elaboratedFor = nullptr;  ///< result whose elaborated IR m_elaboratedText holds
    std::string m_elaboratedText;
};

}  // namespace ts::gui
