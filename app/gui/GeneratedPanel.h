// The generated-source panel: the CUDA C++ of the latest successful compile (C++ lexer with CUDA
// keywords), a header line with the kernel's launch configuration, and cross-highlighting through
// CompileResult::cudaLineSpans — the lines generated from the focused source span are banded, and
// clicking a generated line focuses the source statement it came from.
#pragma once
#include <QWidget>

class QLabel;

namespace ts::gui {

class CodeView;
class Session;

class GeneratedPanel : public QWidget {
    Q_OBJECT
public:
    explicit GeneratedPanel(Session& session, QWidget* parent = nullptr);
    CodeView* view() const { return m_view; }

private:
    void onResult();
    void updateCrossHighlight();

    Session& m_session;
    QLabel* m_header;
    CodeView* m_view;
};

}  // namespace ts::gui
