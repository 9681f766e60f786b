#include "cli/client/term_text.h"

#include <clocale>
#include <cwchar>
#include <locale.h>
#include <sstream>

namespace halma::cli {

namespace {

// Length of the escape sequence starting at i (CSI "\x1b[...<letter>"), or 0.
std::size_t escape_length(std::string_view text, std::size_t i) {
    if (text[i] != '\x1b' || i + 1 >= text.size() || text[i + 1] != '[') return 0;
    std::size_t j = i + 2;
    while (j < text.size() && !(text[j] >= '@' && text[j] <= '~')) ++j;
    return j < text.size() ? j - i + 1 : text.size() - i;
}

bool continuation(char c) {
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// The columns a terminal gives the UTF-8 character text[i, end): two for East Asian wide
// characters and most emoji ("家", "🎲"), none for combining marks and zero-width spaces, one
// for the rest. glibc's wcwidth knows the Unicode tables; it answers in the thread's locale,
// so it is asked in C.UTF-8 (built into glibc), whatever locale the user runs.
int columns_of(std::string_view text, std::size_t i, std::size_t end) {
    auto lead = static_cast<unsigned char>(text[i]);
    if (lead < 0x80 || end - i < 2) return 1;
    char32_t code = lead >= 0xF0 ? lead & 0x07 : lead >= 0xE0 ? lead & 0x0F : lead & 0x1F;
    for (std::size_t k = i + 1; k < end; ++k)
        code = (code << 6) | (static_cast<unsigned char>(text[k]) & 0x3F);
    static const locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", locale_t {});
    if (!utf8) return 1;
    locale_t before = uselocale(utf8);
    int columns = ::wcwidth(static_cast<wchar_t>(code));
    uselocale(before);
    return columns < 0 ? 1 : columns;
}

} // namespace

int visible_width(std::string_view text) {
    int width = 0;
    for (std::size_t i = 0; i < text.size();) {
        if (std::size_t n = escape_length(text, i)) {
            i += n;
            continue;
        }
        std::size_t j = i + 1;
        while (j < text.size() && continuation(text[j])) ++j;
        width += columns_of(text, i, j);
        i = j;
    }
    return width;
}

std::string fit(std::string_view text, int width, bool pad) {
    std::string out;
    int used = 0;
    bool coloured = false;
    std::size_t i = 0;
    while (i < text.size()) {
        if (std::size_t n = escape_length(text, i)) {
            out.append(text.substr(i, n));
            coloured = text.substr(i, n) != "\x1b[0m";
            i += n;
            continue;
        }
        // A whole character: its lead byte and continuation bytes.
        std::size_t j = i + 1;
        while (j < text.size() && continuation(text[j])) ++j;
        int columns = columns_of(text, i, j);
        if (used + columns > width) break;
        out.append(text.substr(i, j - i));
        used += columns;
        i = j;
    }
    if (i < text.size() && coloured) out += "\x1b[0m";
    if (pad && used < width) out.append(static_cast<std::size_t>(width - used), ' ');
    return out;
}

std::string wrap(std::string_view text, int width, std::string_view indent) {
    std::string out, line;
    auto flush = [&] {
        out += line + "\n";
        line = std::string(indent);
    };
    std::size_t i = 0;
    while (i < text.size()) {
        std::size_t end = text.find(' ', i);
        std::string_view word = text.substr(i, end == std::string_view::npos ? end : end - i);
        bool fresh = line.empty() || line == indent;
        if (!fresh && visible_width(line) + 1 + visible_width(word) > width) flush();
        if (!(line.empty() || line == indent)) line += ' ';
        // A word wider than a whole line (a link pasted into the chat) is broken where the line
        // ends: the screen cut it there, and the rest was never seen. At least one character a
        // line, so a line narrower than that still ends. Words with escapes are left whole.
        while (visible_width(line) + visible_width(word) > width
            && word.find('\x1b') == std::string_view::npos) {
            std::size_t cut = 0;
            while (cut < word.size()) {
                std::size_t next = cut + 1;
                while (
                    next < word.size() && (static_cast<unsigned char>(word[next]) & 0xC0) == 0x80)
                    ++next;
                if (cut > 0 && visible_width(line) + visible_width(word.substr(0, next)) > width)
                    break;
                cut = next;
            }
            if (cut == word.size()) break;
            line += word.substr(0, cut);
            word.remove_prefix(cut);
            flush();
        }
        line += word;
        if (end == std::string_view::npos) break;
        i = end + 1;
    }
    if (!line.empty() && line != indent) out += line + "\n";
    return out;
}

void add_wrapped(std::vector<std::string>& out, std::string_view text, int width) {
    std::istringstream lines(wrap(text, width, "  "));
    for (std::string line; std::getline(lines, line);) out.push_back(line);
}

} // namespace halma::cli
