#include "daemon/net/toml_syntax_error.h"

#include <utility>

namespace halma::daemon {

namespace {

constexpr std::string_view kPrefix = "Error while parsing ";

bool has(std::string_view text, std::string_view part) {
    return text.find(part) != std::string_view::npos;
}

// What toml++ was reading ("string", "table header"...) and what it found wrong there.
std::pair<std::string_view, std::string_view> split(std::string_view description) {
    if (!description.starts_with(kPrefix)) return { "", description };
    description.remove_prefix(kPrefix.size());
    auto colon = description.find(": ");
    if (colon == std::string_view::npos) return { "", description };
    return { description.substr(0, colon), description.substr(colon + 2) };
}

// The plain words for what toml++ said, by what it was reading and what it found: the mistakes
// people make in a hand-edited file, first (the rest are said generally by their kind).
std::string plain_words(std::string_view scope, std::string_view what, bool at_line_end) {
    bool in_string = scope == "string" || scope == "literal string";
    if (in_string && has(what, "control character"))
        return at_line_end
            ? "the quoted text has no closing quote on this line: end it with the quote it "
              "starts with (\" or ')"
            : "the quoted text holds a control character (one that does not show, such as ESC): "
              "take it out";
    if (has(what, "end-of-file"))
        return "the file ends inside something left open (a quote, a [ list or a { table): close "
               "it";
    if (scope == "string" && has(what, "escape sequence"))
        return "a backslash inside double quotes starts an escape such as \\n: write a path or "
               "other text with backslashes in single quotes ('C:\\halma'), or double each "
               "backslash";
    if (scope == "unicode scalar sequence")
        return "a \\u escape takes four hexadecimal digits (\\u00e9), \\U eight";
    if (has(what, "could not determine value type"))
        return "the value is not one TOML knows: text goes in quotes (name = \"office-pi\"); "
               "numbers, true and false do not";
    if (has(what, "expected value"))
        return "the setting has no value after its '=': give one (text in quotes)";
    if (has(what, "expected '='"))
        return "a setting is written NAME = VALUE, and this one has no '='";
    if (has(what, "expected a comment or whitespace"))
        return "something follows the value on this line: one setting per line, a number "
               "without commas or units (30000, not 30,000 or 30s), and text in quotes (a ' "
               "inside single quotes ends the text: use double quotes)";
    if (scope == "boolean") return "true and false are written in lower case, without quotes";
    if (scope == "table header")
        return has(what, "redefine")
            ? "a table of this name was given before: each room is a [[room]] table (two "
              "brackets), never [room]"
            : "a table header is written [[room]], its brackets together and closed on the "
              "same line";
    if (has(what, "redefine existing"))
        return "this setting is given a second time here: keep one (each room's settings "
               "follow its own [[room]] line)";
    if (scope == "array")
        return "a list is written [\"eth0\", \"wlan0\"]: a comma between items, and a ] at the "
               "end";
    if (scope == "inline table") return "an inline table { ... } is not written right";
    if (scope == "root table")
        return "this line is not a setting (NAME = VALUE), a [[room]] line or a # comment";
    if (has(scope, "integer") || has(scope, "floating-point"))
        return "the number is not written right: plain digits (30000), with no leading zero, "
               "commas or units";
    if (scope == "date" || scope == "time" || scope == "date-time")
        return "the date or time is not a real one";
    return "this is not valid TOML";
}

} // namespace

std::string toml_syntax_error(const std::string& path, std::uint32_t line, std::uint32_t column,
    std::string_view description, std::string_view line_text) {
    auto [scope, what] = split(description);
    // toml++ stops at the character it could not take, counting columns in characters: one
    // past the line's last is its end (a CR of a CRLF file is the end too).
    if (line_text.ends_with('\r')) line_text.remove_suffix(1);
    std::size_t characters = 0;
    for (char c : line_text) characters += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    bool at_line_end = column > characters;
    return path + " line " + std::to_string(line) + ", column " + std::to_string(column) + ": "
        + plain_words(scope, what, at_line_end)
        + "; the TOML parser says: " + std::string(description);
}

} // namespace halma::daemon
