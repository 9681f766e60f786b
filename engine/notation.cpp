#include "notation.h"

#include "geometry.h"

#include <charconv>

namespace halma::engine {

std::string cell_name(Cell c) {
    if (c >= kCellNB) return "?";
    int r = kGeometry.row[c];
    int hole = c - kGeometry.row_start[static_cast<std::size_t>(r)] + 1;
    return std::string(1, static_cast<char>('a' + r)) + std::to_string(hole);
}

std::string printable_char(std::string_view text, std::size_t i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) {
        const char* hex = "0123456789abcdef";
        return std::string("\\x") + hex[c >> 4] + hex[c & 15];
    }
    std::size_t end = i + 1;
    if (c >= 0xc0)
        while (end < text.size() && end < i + 4
            && (static_cast<unsigned char>(text[end]) & 0xc0) == 0x80)
            ++end;
    return std::string(text.substr(i, end - i));
}

std::string printable(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        auto c = static_cast<unsigned char>(text[i]);
        out += c < 0x20 || c == 0x7f ? printable_char(text, i) : std::string(1, text[i]);
    }
    return out;
}

Result<Cell> parse_cell(std::string_view text) {
    auto bad = [&](const std::string& why) {
        return fail("'" + printable(text) + "' is not a hole: " + why);
    };
    if (text.size() < 2) return bad("a hole is a row a-q and a number, like m7");
    char row = text[0];
    if (row >= 'A' && row <= 'Q') row = static_cast<char>(row - 'A' + 'a');
    if (row < 'a' || row > 'q') return bad("rows run from a to q");
    int r = row - 'a';
    int hole = 0;
    auto [end, ec] = std::from_chars(text.data() + 1, text.data() + text.size(), hole);
    if (ec != std::errc {} || end != text.data() + text.size())
        return bad("a hole is a row a-q and a number, like m7");
    int length = kRowLength[static_cast<std::size_t>(r)];
    if (hole < 1 || hole > length)
        return bad(std::string("row ") + row + " has holes 1 to " + std::to_string(length));
    return static_cast<Cell>(kGeometry.row_start[static_cast<std::size_t>(r)] + hole - 1);
}

Result<std::vector<Cell>> parse_path(std::string_view text) {
    std::vector<Cell> path;
    while (true) {
        auto dash = text.find('-');
        auto cell = parse_cell(text.substr(0, dash));
        if (!cell) return std::unexpected(cell.error());
        path.push_back(*cell);
        if (dash == std::string_view::npos) break;
        text.remove_prefix(dash + 1);
    }
    if (path.size() < 2) return fail("a move is written from-to, like o1-m7");
    return path;
}

std::string move_name(Move m) {
    if (m.is_pass()) return "pass";
    return cell_name(m.from) + "-" + cell_name(m.to);
}

std::string path_name(const std::vector<Cell>& path) {
    std::string s;
    for (Cell c : path) s += (s.empty() ? "" : "-") + cell_name(c);
    return s;
}

std::string set_words(SetId s) {
    static constexpr const char* kColours[kSetNB]
        = { "black", "green", "yellow", "red", "cyan", "purple" };
    if (s >= kSetNB) return "set " + std::to_string(s + 1);
    return std::string(kColours[s]) + " (set " + std::to_string(s + 1) + ")";
}

} // namespace halma::engine
