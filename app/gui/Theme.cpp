// Light/dark palettes and code-view styling (Theme.h).
#include "app/gui/Theme.h"
#include "visualizer/widgets/DiffView.h"

#include <QApplication>
#include <QFontDatabase>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

#include <Qsci/qscilexercpp.h>
#include <Qsci/qscilexerpython.h>
#include <Qsci/qsciscintilla.h>

namespace ts::gui {
namespace {

Theme lightTheme() {
    Theme t;
    t.name = "light";
    t.paper = QColor("#ffffff");
    t.text = QColor("#1f2328");
    t.margin = QColor("#f6f8fa");
    t.marginText = QColor("#8c959f");
    t.caretLine = QColor("#f3f6fa");
    t.selection = QColor("#cde3ff");
    t.caret = QColor("#1f2328");
    t.comment = QColor("#6e7781");
    t.keyword = QColor("#cf222e");
    t.string = QColor("#0a3069");
    t.number = QColor("#0550ae");
    t.identifier = QColor("#1f2328");
    t.tname = QColor("#8250df");
    t.op = QColor("#24292f");
    t.decorator = QColor("#953800");
    t.preproc = QColor("#953800");
    t.crossHighlight = QColor("#fff2b3");
    t.diffAddLine = QColor("#e6ffec");
    t.diffAddText = QColor("#abf2bc");
    t.diffDelLine = QColor("#ffebe9");
    t.diffDelText = QColor("#ffb3ad");
    t.diffFiller = QColor("#f0f1f3");
    t.error = QColor("#d1242f");
    t.warning = QColor("#bf8700");
    t.note = QColor("#0969da");
    t.accent = QColor("#0969da");
    t.success = QColor("#1a7f37");
    t.dim = QColor("#8c959f");
    return t;
}

Theme darkTheme() {
    Theme t;
    t.name = "dark";
    t.dark = true;
    t.paper = QColor("#1e1f22");
    t.text = QColor("#d4d7dc");
    t.margin = QColor("#26282c");
    t.marginText = QColor("#6b717a");
    t.caretLine = QColor("#2a2c30");
    t.selection = QColor("#214283");
    t.caret = QColor("#e6e6e6");
    t.comment = QColor("#7a8290");
    t.keyword = QColor("#cf8e6d");
    t.string = QColor("#6aab73");
    t.number = QColor("#2aacb8");
    t.identifier = QColor("#d4d7dc");
    t.tname = QColor("#c77dbb");
    t.op = QColor("#bcbec4");
    t.decorator = QColor("#b3ae60");
    t.preproc = QColor("#b3ae60");
    t.crossHighlight = QColor("#4a4420");
    t.diffAddLine = QColor("#233527");
    t.diffAddText = QColor("#2f6b3a");
    t.diffDelLine = QColor("#3d2326");
    t.diffDelText = QColor("#82323a");
    t.diffFiller = QColor("#26282c");
    t.error = QColor("#f75464");
    t.warning = QColor("#e0b050");
    t.note = QColor("#589df6");
    t.accent = QColor("#589df6");
    t.success = QColor("#57ab5a");
    t.dim = QColor("#6b717a");
    return t;
}

QPalette paletteFor(const Theme& t) {
    if (!t.dark) return QStyleFactory::create("Fusion")->standardPalette();
    QPalette p;
    QColor window("#2b2d30"), base("#1e1f22"), text("#dfe1e5"), button("#3c3f41");
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor("#25272a"));
    p.setColor(QPalette::ToolTipBase, QColor("#3c3f41"));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor("#7a7e85"));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Highlight, QColor("#2e5fa8"));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor("#589df6"));
    p.setColor(QPalette::Mid, QColor("#3a3c40"));
    p.setColor(QPalette::Dark, QColor("#1a1b1e"));
    p.setColor(QPalette::Light, QColor("#45484c"));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor("#6f737a"));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor("#6f737a"));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor("#6f737a"));
    return p;
}

}  // namespace

ThemeManager& ThemeManager::instance() {
    static ThemeManager* m = new ThemeManager;
    return *m;
}

ThemeManager::ThemeManager() : m_theme(lightTheme()) {}

void ThemeManager::setTheme(const QString& name) {
    m_theme = name == "dark" ? darkTheme() : lightTheme();
    if (qApp) {
        QApplication::setStyle(QStyleFactory::create("Fusion"));
        QApplication::setPalette(paletteFor(m_theme));
        // Dock titles and tab bars a little more legible than Fusion's defaults.
        qApp->setStyleSheet(
            QStringLiteral("QDockWidget::title { padding: 4px 6px; background: %1; }"
                           "QDockWidget { titlebar-close-icon: none; }"
                           "QToolTip { padding: 4px; }")
                .arg(m_theme.dark ? "#313337" : "#e9ecef"));
    }
    emit themeChanged();
}

QFont ThemeManager::codeFont() const {
    QFont f("DejaVu Sans Mono");
    if (!QFontInfo(f).fixedPitch()) f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    f.setStyleHint(QFont::Monospace);
    f.setPointSize(10);
    return f;
}

void ThemeManager::styleView(QsciScintilla* v) const {
    const Theme& t = m_theme;
    v->setFont(codeFont());
    v->setMarginsFont(codeFont());
    v->setPaper(t.paper);
    v->setColor(t.text);
    v->setMarginsBackgroundColor(t.margin);
    v->setMarginsForegroundColor(t.marginText);
    v->setFoldMarginColors(t.margin, t.margin);
    v->setCaretLineBackgroundColor(t.caretLine);
    v->setCaretForegroundColor(t.caret);
    v->setSelectionBackgroundColor(t.selection);
    v->setSelectionForegroundColor(t.text);
    v->setMatchedBraceBackgroundColor(t.selection);
    v->setMatchedBraceForegroundColor(t.text);
    v->setUnmatchedBraceForegroundColor(t.error);
    v->setIndentationGuidesBackgroundColor(t.margin);
    v->setIndentationGuidesForegroundColor(t.marginText);
    v->setEdgeColor(t.margin);
    // Fold markers (Scintilla's marker numbers 25..31): box outline and fill follow the margin.
    for (int m = 25; m <= 31; ++m) {
        v->SendScintilla(QsciScintilla::SCI_MARKERSETFORE, m, t.margin);
        v->SendScintilla(QsciScintilla::SCI_MARKERSETBACK, m, t.marginText);
    }
}

void ThemeManager::styleLexer(QsciLexer* lexer) const {
    const Theme& t = m_theme;
    QFont f = codeFont();
    lexer->setDefaultFont(f);
    lexer->setFont(f, -1);
    lexer->setDefaultPaper(t.paper);
    lexer->setPaper(t.paper, -1);
    lexer->setDefaultColor(t.text);
    lexer->setColor(t.text, -1);
    QFont bold = f;
    bold.setBold(true);
    if (auto* py = qobject_cast<QsciLexerPython*>(lexer)) {
        using L = QsciLexerPython;
        py->setColor(t.comment, L::Comment);
        py->setColor(t.comment, L::CommentBlock);
        py->setColor(t.number, L::Number);
        for (int s :
             {L::DoubleQuotedString, L::SingleQuotedString, L::TripleSingleQuotedString,
              L::TripleDoubleQuotedString, L::DoubleQuotedFString, L::SingleQuotedFString,
              L::TripleSingleQuotedFString, L::TripleDoubleQuotedFString, L::UnclosedString})
            py->setColor(t.string, s);
        py->setColor(t.keyword, L::Keyword);
        py->setFont(bold, L::Keyword);
        py->setColor(t.tname, L::HighlightedIdentifier);
        py->setColor(t.identifier, L::ClassName);
        py->setFont(bold, L::ClassName);
        py->setColor(t.identifier, L::FunctionMethodName);
        py->setFont(bold, L::FunctionMethodName);
        py->setColor(t.op, L::Operator);
        py->setColor(t.decorator, L::Decorator);
        py->setFoldComments(true);
        py->setFoldQuotes(true);
    } else if (auto* cpp = qobject_cast<QsciLexerCPP*>(lexer)) {
        using L = QsciLexerCPP;
        for (int s : {L::Comment, L::CommentLine, L::CommentDoc, L::CommentLineDoc})
            cpp->setColor(t.comment, s);
        cpp->setColor(t.number, L::Number);
        cpp->setColor(t.keyword, L::Keyword);
        cpp->setFont(bold, L::Keyword);
        cpp->setColor(t.tname, L::KeywordSet2);
        cpp->setColor(t.string, L::DoubleQuotedString);
        cpp->setColor(t.string, L::SingleQuotedString);
        cpp->setColor(t.string, L::RawString);
        cpp->setColor(t.preproc, L::PreProcessor);
        cpp->setColor(t.op, L::Operator);
        cpp->setColor(t.identifier, L::Identifier);
        cpp->setColor(t.decorator, L::GlobalClass);
        // Inactive (#if 0) styles are offset by 64 in Scintilla's C++ lexer.
        for (int s = 64; s < 64 + 28; ++s) {
            cpp->setColor(t.dim, s);
            cpp->setPaper(t.paper, s);
        }
    }
}

void styleDiffView(viz::DiffView* d) {
    const Theme& t = theme();
    viz::DiffView::Colors c;
    c.addLine = t.diffAddLine;
    c.addText = t.diffAddText;
    c.delLine = t.diffDelLine;
    c.delText = t.diffDelText;
    c.filler = t.diffFiller;
    c.marginText = t.marginText;
    auto& tm = ThemeManager::instance();
    for (QsciScintilla* v : {d->left(), d->right(), d->unifiedView()}) {
        if (v->lexer()) tm.styleLexer(v->lexer());
        tm.styleView(v);
        v->setMarginsFont(tm.codeFont());
    }
    d->setColors(c);
}

}  // namespace ts::gui
