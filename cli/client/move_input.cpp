// What a player types as a move, read as the notation writes it (docs/notation.md): "N1 m5",
// "n1m5" and a word processor's dash are n1-m5, and a hole alone names the one move there.
#include "cli/client/client_common.h"
#include "engine/notation.h"

#include <cctype>
#include <cstring>
#include <iostream>

namespace halma::cli {

namespace {

// A move as people write it, in the notation's form: "n1 m5", "n1m5", "N1-M5", "n1 - m5" and
// "n1–m5" (a dash that word processors and phones make) are all n1-m5. Anything that is not
// holes and separators is left as typed, for the notation to explain.
std::string as_notation(std::string typed) {
    for (const char* dash : { "\u2013", "\u2014", "\u2212" }) // en dash, em dash, minus sign
        for (std::size_t at; (at = typed.find(dash)) != std::string::npos;)
            typed.replace(at, std::strlen(dash), "-");
    std::string out;
    for (std::size_t i = 0; i < typed.size(); ++i) {
        char c = typed[i];
        if (c == ' ' || c == '\t' || c == ',' || c == '-') {
            if (!out.empty() && out.back() != '-') out += '-';
            continue;
        }
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        // A row's letter right after a hole's number starts the next hole: "n1m5".
        if (std::isalpha(static_cast<unsigned char>(c)) && !out.empty()
            && std::isdigit(static_cast<unsigned char>(out.back())))
            out += '-';
        out += c;
    }
    while (!out.empty() && out.back() == '-') out.pop_back();
    bool holes = !out.empty()
        && out.find_first_not_of("abcdefghijklmnopq0123456789-") == std::string::npos;
    return holes ? out : typed;
}

} // namespace

std::optional<std::string> read_move(
    const pb::RoomView& view, const std::string& typed_as_is, int& exit_code, std::string* why) {
    // Echoed in the reasons below: a line of 5000 characters pushed the screen's log away.
    if (typed_as_is.size() > 100) {
        exit_code = 2;
        std::string message = "that is not a move (" + std::to_string(typed_as_is.size())
            + " characters): write one as from-to, like n1-m5";
        if (why)
            *why = message;
        else
            std::cerr << "halma: " << message << "\n";
        return std::nullopt;
    }
    const std::string typed = as_notation(typed_as_is);
    auto fail = [&](int code, const std::string& message) -> std::optional<std::string> {
        exit_code = code;
        if (why)
            *why = message;
        else
            std::cerr << "halma: " << message << "\n";
        return std::nullopt;
    };
    if (typed == "pass") return typed;
    auto cell = engine::parse_cell(typed);
    if (!cell) {
        auto path = engine::parse_path(typed);
        if (!path) return fail(2, path.error().message + " (write a move as from-to, like n1-m5)");
        return typed;
    }
    // Just a target: fine when exactly one of the player's legal moves ends there.
    if (!view.your_turn()) {
        // As the host says it for a whole move: whose turn it is.
        int seat = view.turn_seat();
        if (seat < 0 || seat >= view.seats_size()) return fail(1, "not your turn");
        const std::string& name = view.seats(seat).name();
        std::string number = std::to_string(seat + 1);
        return fail(1,
            name.empty() ? "not your turn: seat " + number + " is to move"
                         : "not your turn: it is " + name + "'s turn (seat " + number + ")");
    }
    std::string target = engine::cell_name(*cell);
    std::vector<std::string> candidates;
    for (const auto& m : view.legal_moves()) {
        auto dash = m.rfind('-');
        if (dash != std::string::npos && m.substr(dash + 1) == target) candidates.push_back(m);
    }
    if (candidates.empty()) return fail(1, "none of your marbles can reach " + target);
    if (candidates.size() > 1) {
        std::string list;
        for (const auto& c : candidates) list += (list.empty() ? "" : ", ") + c;
        return fail(2,
            target + " can be reached by more than one marble (" + list + "): say which, e.g. "
                + candidates.front());
    }
    return candidates.front();
}

} // namespace halma::cli
