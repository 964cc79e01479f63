#include "visualizer/core/Svg.h"

#include <cstdio>
#include <sstream>

namespace ts::viz {

namespace {
std::string hex(uint32_t c) {
    char b[8];
    std::snprintf(b, sizeof b, "#%06x", c & 0xffffff);
    return b;
}
std::string esc(const std::string& s) {
    std::string o;
    for (char ch : s) {
        if (ch == '<')
            o += "&lt;";
        else if (ch == '>')
            o += "&gt;";
        else if (ch == '&')
            o += "&amp;";
        else
            o += ch;
    }
    return o;
}
}  // namespace

std::string layoutToSvg(const LayoutGridModel& m, const SvgOptions& o) {
    const int cs = o.cell, left = 36, top = 44;
    const int64_t W = left + m.cols() * cs + 8, H = top + m.rows() * cs + 8;
    std::ostringstream os;
    os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H
       << "\" font-family=\"monospace\">\n";
    os << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    os << "<text x=\"4\" y=\"14\" font-size=\"12\">" << esc(m.name() + ": " + m.description())
       << "</text>\n";
    for (int64_t c = 0; c < m.cols(); ++c)
        os << "<text x=\"" << left + c * cs + cs / 2 << "\" y=\"" << top - 6
           << "\" font-size=\"8\" text-anchor=\"middle\">" << c << "</text>\n";
    for (int64_t r = 0; r < m.rows(); ++r) {
        os << "<text x=\"" << left - 4 << "\" y=\"" << top + r * cs + cs / 2 + 3
           << "\" font-size=\"8\" text-anchor=\"end\">" << r << "</text>\n";
        for (int64_t c = 0; c < m.cols(); ++c) {
            const LayoutCell& x = m.cell(r, c);
            uint32_t fill =
                m.isShared() ? bankColor(x.bank) : threadColor(x.thread, m.lanesPerWarp());
            const int64_t px = left + c * cs, py = top + r * cs;
            bool hl = o.highlightThread >= 0 && x.thread == o.highlightThread;
            os << "<rect x=\"" << px << "\" y=\"" << py << "\" width=\"" << cs << "\" height=\""
               << cs << "\" fill=\"" << hex(fill) << "\" stroke=\"" << (hl ? "black" : "#888")
               << "\" stroke-width=\"" << (hl ? 2 : 0.5) << "\"><title>" << esc(m.describe(r, c))
               << "</title></rect>\n";
            std::string a =
                m.isShared() ? std::to_string(x.physical) : "T" + std::to_string(x.thread);
            std::string b =
                m.isShared() ? "b" + std::to_string(x.bank) : "r" + std::to_string(x.local);
            os << "<text x=\"" << px + cs / 2 << "\" y=\"" << py + cs / 2 - 1 << "\" font-size=\""
               << cs / 4 << "\" text-anchor=\"middle\">" << a << "</text>";
            os << "<text x=\"" << px + cs / 2 << "\" y=\"" << py + cs / 2 + cs / 4 + 1
               << "\" font-size=\"" << cs / 4 << "\" text-anchor=\"middle\">" << b << "</text>\n";
        }
    }
    os << "</svg>\n";
    return os.str();
}

std::string heatmapToSvg(const BankHeatmapModel& m, int cs) {
    const int left = 40, top = 44;
    const int W = left + m.banks() * cs + 8, H = top + m.lanes() * cs + 8;
    static const uint32_t kWave[] = {0xffffff, 0xb7e4b0, 0xfde08b, 0xfdae61,
                                     0xf46d43, 0xd73027, 0xa50026};
    std::ostringstream os;
    os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H
       << "\" font-family=\"monospace\">\n";
    os << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    os << "<text x=\"4\" y=\"14\" font-size=\"12\">" << esc(m.title() + "  " + m.summary())
       << "</text>\n";
    for (int b = 0; b < m.banks(); ++b)
        os << "<text x=\"" << left + b * cs + cs / 2 << "\" y=\"" << top - 6
           << "\" font-size=\"8\" text-anchor=\"middle\">" << b << "</text>\n";
    for (int l = 0; l < m.lanes(); ++l) {
        os << "<text x=\"" << left - 4 << "\" y=\"" << top + l * cs + cs / 2 + 3
           << "\" font-size=\"8\" text-anchor=\"end\">" << l << "</text>\n";
        for (int b = 0; b < m.banks(); ++b) {
            int v = m.cell(l, b);
            os << "<rect x=\"" << left + b * cs << "\" y=\"" << top + l * cs << "\" width=\"" << cs
               << "\" height=\"" << cs << "\" fill=\"" << hex(kWave[std::min(v, 6)])
               << "\" stroke=\"#ccc\" stroke-width=\"0.5\"/>";
            if (v)
                os << "<text x=\"" << left + b * cs + cs / 2 << "\" y=\""
                   << top + l * cs + cs / 2 + 3 << "\" font-size=\"8\" text-anchor=\"middle\">" << v
                   << "</text>";
            os << "\n";
        }
        if (l + 1 < m.lanes() && m.phaseOfLane(l) != m.phaseOfLane(l + 1) &&
            m.phaseOfLane(l + 1) >= 0)
            os << "<line x1=\"" << left << "\" x2=\"" << left + m.banks() * cs << "\" y1=\""
               << top + (l + 1) * cs << "\" y2=\"" << top + (l + 1) * cs
               << "\" stroke=\"black\" stroke-width=\"1.5\"/>\n";
    }
    os << "</svg>\n";
    return os.str();
}

}  // namespace ts::viz
