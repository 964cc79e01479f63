// The `# tilescope:` parameter pragma (compiler/support/ParamPragma.h): parse, format, rewrite in
// place, insert after the header comments, remove.
#include <QtTest>

#include "compiler/support/ParamPragma.h"

using namespace ts;

class ParamPragmaTest : public QObject {
    Q_OBJECT
private slots:
    void parsesValues() {
        auto v =
            parseParamPragma("import x\n# tilescope: M=4096 dtype=\"float16\" tile=(64, 32)\n");
        QCOMPARE(v.size(), size_t(3));
        QCOMPARE(QString::fromStdString(v["M"]), QString("4096"));
        QCOMPARE(QString::fromStdString(v["dtype"]), QString("\"float16\""));
        QCOMPARE(QString::fromStdString(v["tile"]), QString("(64, 32)"));
        QCOMPARE(paramPragmaLine("import x\n# tilescope: M=1\n"), 2);
    }
    void ignoresOtherComments() {
        QVERIFY(parseParamPragma("# tilescope is great\n# M=4\n").empty());
        QCOMPARE(paramPragmaLine("x = 1\n"), 0);
        auto v = parseParamPragma("#tilescope: M=4 junk =5 N=\n");
        QCOMPARE(v.size(), size_t(1));
    }
    void rewritesInPlace() {
        std::string text = "import a\n# tilescope: M=1\nx = 2\n";
        QCOMPARE(QString::fromStdString(withParamPragma(text, {{"M", "8"}, {"N", "4"}})),
                 QString("import a\n# tilescope: M=8 N=4\nx = 2\n"));
    }
    void insertsAfterHeaderComments() {
        std::string text = "# Copyright\n# GEMM\n\nimport a\n";
        QCOMPARE(QString::fromStdString(withParamPragma(text, {{"M", "8"}})),
                 QString("# Copyright\n# GEMM\n\n# tilescope: M=8\nimport a\n"));
        QCOMPARE(QString::fromStdString(withParamPragma("import a", {{"M", "8"}})),
                 QString("# tilescope: M=8\nimport a"));
    }
    void removesWhenEmpty() {
        QCOMPARE(QString::fromStdString(withParamPragma("a\n# tilescope: M=1\nb\n", {})),
                 QString("a\nb\n"));
        QCOMPARE(QString::fromStdString(withParamPragma("a\n", {})), QString("a\n"));
    }
    void roundTrips() {
        std::map<std::string, std::string> v = {{"K", "512"}, {"dtype", "\"bfloat16\""}};
        std::string t = withParamPragma("import a\n", v);
        QVERIFY(parseParamPragma(t) == v);
    }
};

QTEST_APPLESS_MAIN(ParamPragmaTest)
#include "ParamPragmaTest.moc"
