// halma: the command line front end. Analysis runs the engine in-process; every other command
// talks to the local halmad.
#include "cli/client/edit_distance.h"
#include "cli/client/shell_word.h"
#include "commands.h"
#include "halma/version.h"

#include <algorithm>
#include <iostream>
#include <regex>
#include <vector>

namespace {

// "did you mean `move`?" for a mistyped command, empty when nothing is close.
std::string suggestion(const CLI::App& app, const std::string& typed) {
    std::string best;
    std::size_t best_distance = 3; // further than 2 edits is another word
    for (const auto* sub : app.get_subcommands({})) {
        std::size_t d = halma::cli::edit_distance(typed, sub->get_name());
        if (d < best_distance) {
            best_distance = d;
            best = sub->get_name();
        }
    }
    return best.empty() ? "" : " (did you mean `" + best + "`?)";
}

// "did you mean `--bot-level`?" for an option `command` does not have, empty when none is close:
// a few letters off, or the word typed is part of the option's name (`--level`).
std::string option_suggestion(const CLI::App& command, const std::string& typed) {
    auto dashes = typed.find_first_not_of('-');
    std::string word = dashes == std::string::npos ? "" : typed.substr(dashes);
    std::string best;
    std::size_t best_distance = 3;
    for (const auto* option : command.get_options())
        for (const auto& name : option->get_lnames()) {
            std::size_t d = halma::cli::edit_distance(word, name);
            if (word.size() >= 3 && name.find(word) != std::string::npos)
                d = std::min<std::size_t>(d, 1);
            if (d < best_distance) {
                best_distance = d;
                best = "--" + name;
            }
        }
    return best.empty() ? "" : " (did you mean `" + best + "`?)";
}

// A command's own commands, as a list: "moves, perft, path, best, record".
std::string commands_of(const CLI::App& command) {
    std::string list;
    for (const auto* sub : command.get_subcommands({}))
        list += (list.empty() ? "" : ", ") + sub->get_name();
    return list;
}

// What was typed after `command`'s name: its options with their values, as a shell reads them
// back (" -p 3"), and the other words (a room's name in two words, a move in two holes).
struct TypedAfter {
    std::string options;
    std::vector<std::string> words;
};
TypedAfter typed_after(const CLI::App& app, const CLI::App& command, int argc, char** argv) {
    TypedAfter typed;
    int first = 1; // after the command's name (halma's own options come before it)
    while (first < argc && argv[first] != command.get_name()) ++first;
    for (int i = first + 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg.rfind('-', 0) != 0) {
            typed.words.push_back(arg);
            continue;
        }
        typed.options += " " + halma::cli::shell_word(arg);
        // A flag (--spectate) takes no value, though its type size is 1.
        const CLI::Option* o = command.get_option_no_throw(arg);
        if (!o) o = app.get_option_no_throw(arg);
        if (o && o->get_items_expected_min() > 0 && arg.find('=') == std::string::npos
            && i + 1 < argc)
            typed.options += " " + halma::cli::shell_word(argv[++i]);
    }
    return typed;
}

// The global options whose value is the next word (not a command).
bool takes_value(const std::string& arg) {
    return arg == "--runtime-dir" || arg == "--timeout-ms";
}

// CLI11's words for a value refused, as halma says the rest: "depth: Value abc not in range 0 to
// 64" -> "depth: 'abc' is not a number (from 0 to 64)"; "'1.5' is not between 1 and 86400" was
// said of a value between them that is not whole; "Could not convert: --time = abc"; "what:
// maybe not in {new,cancel}".
std::string plain_words(const std::string& message) {
    auto bound = [](std::string b) { // "3600.000000" -> "3600"
        if (b.find('.') != std::string::npos) {
            while (!b.empty() && b.back() == '0') b.pop_back();
            if (!b.empty() && b.back() == '.') b.pop_back();
        }
        return b;
    };
    std::smatch m;
    static const std::regex kRange("Value (\\S*) not in range (\\S+) to (\\S+)");
    if (std::regex_search(message, m, kRange)) {
        std::string value = m[1].str(), low = bound(m[2].str()), high = bound(m[3].str());
        std::string said;
        if (!std::regex_match(value, std::regex("-?[0-9]+(\\.[0-9]*)?")))
            said = "'" + value + "' is not a number (from " + low + " to " + high + ")";
        else if (value.find('.') != std::string::npos && low.find('.') == std::string::npos
            && high.find('.') == std::string::npos)
            said = "'" + value + "' is not a whole number (from " + low + " to " + high + ")";
        else
            said = "'" + value + "' is not between " + low + " and " + high;
        return m.prefix().str() + said + m.suffix().str();
    }
    static const std::regex kConvert("Could not convert: (\\S+) = (.*)");
    if (std::regex_search(message, m, kConvert))
        return m.prefix().str() + m[1].str() + ": '" + m[2].str() + "' is not a number";
    // "--sets: 1 required INT:INT in [1 - 3] missing": the option given with no value after it.
    static const std::regex kMissing("(\\S+): \\d+ required (.*) missing");
    if (std::regex_search(message, m, kMissing)) {
        std::smatch part;
        std::string type = m[2].str(), wanted = "a value";
        static const std::regex kBounds("in \\[(\\S+) - (\\S+)\\]"), kChoices("\\{([^}]*)\\}"),
            kAlternatives(":(\\w+(\\|\\w+)+)");
        if (std::regex_search(type, part, kBounds))
            wanted = "a number from " + bound(part[1].str()) + " to " + bound(part[2].str());
        else if (std::regex_search(type, part, kChoices))
            wanted = "one of " + std::regex_replace(part[1].str(), std::regex(","), ", ");
        else if (std::regex_search(type, part, kAlternatives))
            wanted = "one of " + std::regex_replace(part[1].str(), std::regex("\\|"), ", ");
        else if (type.rfind("INT", 0) == 0 || type.rfind("FLOAT", 0) == 0
            || type.rfind("UINT", 0) == 0)
            wanted = "a number";
        return m.prefix().str() + m[1].str() + " needs " + wanted + " after it" + m.suffix().str();
    }
    static const std::regex kMember("(\\S+) not in \\{([^}]*)\\}");
    if (std::regex_search(message, m, kMember)) {
        std::string choices = std::regex_replace(m[2].str(), std::regex(","), ", ");
        return m.prefix().str() + "'" + m[1].str() + "' is not one of " + choices
            + m.suffix().str();
    }
    return message;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app { "halma: Chinese checkers on your LAN.\n"
                   "Analysis commands work offline; the others talk to the local halmad.",
        "halma" }; // usage lines say `halma`, however it was started
    app.set_version_flag("-V,--version", std::string("halma ") + halma::kVersion);
    app.require_subcommand(1);
    int exit_code = 0;
    halma::cli::add_analyze_commands(app, exit_code);
    halma::cli::add_client_commands(app, exit_code);
    halma::cli::add_web_command(app, exit_code);
    halma::cli::add_engine_command(app, exit_code);
    auto* help = app.add_subcommand("help", "Show this help");
    // Made before parsing: once `help` is parsed, app.help() would describe `help` alone.
    std::string usage = app.help();
    help->callback([&] { std::cout << usage; });
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        // Every message of halma's starts with "halma:"; a usage error exits 2.
        std::string message = e.what();
        if (app.get_subcommands().empty())
            for (int i = 1; i < argc; ++i)
                if (argv[i][0] != '-' && !takes_value(argv[i - 1])) {
                    message = "`" + std::string(argv[i]) + "` is not a halma command"
                        + suggestion(app, argv[i]);
                    break;
                }
        // A command's option before the command (`halma -r sunday move n3-m7`, `halma analyze
        // --level hard best ...`): CLI11 said "arguments were not expected: sunday -r", backwards
        // and without the way out.
        auto sub_named = [](CLI::App* parent, const std::string& name) -> CLI::App* {
            auto found
                = parent->get_subcommands([&](CLI::App* sub) { return sub->get_name() == name; });
            return found.empty() ? nullptr : found.front();
        };
        CLI::App* at = &app;
        std::string path = "halma";
        // An option the command typed does not have, nor any command before it (halma's own
        // options may follow a command): `halma host x --level medium` was told that "medium
        // --level" was not expected, and to quote 'x medium' as a room's name.
        bool misplaced = false, unknown = false;
        auto known = [&](CLI::App* from, const std::string& flag) {
            for (CLI::App* a = from; a; a = a->get_parent())
                if (a->get_option_no_throw(flag)) return true;
            return flag == "-h" || flag == "--help";
        };
        for (int i = 1; i < argc; ++i) {
            std::string arg = argv[i];
            if (CLI::App* sub = sub_named(at, arg)) {
                at = sub;
                path += " " + arg;
                continue;
            }
            // A word where the command takes one of its own commands (`halma daemon stop`): CLI11
            // said "A subcommand is required", of a command given one.
            if (arg.empty() || arg[0] != '-') {
                if (!misplaced && !unknown && at != &app && !at->get_subcommands({}).empty()) {
                    unknown = true;
                    message = "`" + arg + "` is not a `" + path + "` command" + suggestion(*at, arg)
                        + "; it has " + commands_of(*at);
                }
                continue;
            }
            if (arg.size() < 2 || arg == "--") continue;
            std::string flag = arg.substr(0, arg.find('='));
            if (known(at, flag)) continue;
            // A value that starts with '-' ("--timeout-ms -5"): its option's, not an option.
            if (const CLI::Option* before
                = i > 1 && argv[i - 1][0] == '-' ? at->get_option_no_throw(argv[i - 1]) : nullptr;
                before && before->get_type_size() != 0)
                continue;
            // The command named later, and its own commands typed after it: the one that has
            // the option is named; an option none of them has is said to be none of the
            // command's.
            for (int j = i + 1; j < argc && !misplaced; ++j) {
                CLI::App* sub = sub_named(at, argv[j]);
                std::string where = path + " " + argv[j];
                for (int k = j + 1; sub && !misplaced; ++k) {
                    if (sub->get_option_no_throw(flag)) {
                        misplaced = true;
                        message = "`" + flag + "` is an option of `" + where
                            + "`: put it after the command (" + where + " " + flag + " ...)";
                    }
                    sub = k < argc ? sub_named(sub, argv[k]) : nullptr;
                    if (sub) where += std::string(" ") + argv[k];
                }
            }
            if (misplaced) break;
            if (!unknown && at != &app && dynamic_cast<const CLI::ExtrasError*>(&e)) {
                unknown = true;
                message = "`" + flag + "` is not an option of `" + path + "`"
                    + option_suggestion(*at, flag);
            }
        }
        // The command alone, where it takes one of its own (`halma daemon`).
        if (!misplaced && !unknown && at != &app && !at->get_subcommands({}).empty()
            && message.find("subcommand is required") != std::string::npos) {
            message = "`" + path + "` needs one of its commands: " + commands_of(*at);
        }
        // A room's name of two words, unquoted (`halma join new room`): CLI11 said only that
        // "room" was not expected. The command again, its options as typed and the words of
        // the name as one, quoted as a shell reads it back. Only where the word is a room's
        // name: `halma move n3 m7` is no name to quote.
        if (dynamic_cast<const CLI::ExtrasError*>(&e) && (misplaced || !unknown)
            && (at->get_name() == "join" || at->get_name() == "host")) {
            auto typed = typed_after(app, *at, argc, argv);
            std::string name;
            for (const auto& word : typed.words) name += (name.empty() ? "" : " ") + word;
            if (typed.words.size() >= 2)
                message += "; a name with spaces goes in quotes: " + path + typed.options + " "
                    + halma::cli::shell_word(name);
        }
        // A move typed as two holes (`halma move n3 m7`): CLI11 said only that "m7" was not
        // expected. A move is one word, its holes joined by dashes: the command again so, its
        // options as typed.
        if (dynamic_cast<const CLI::ExtrasError*>(&e) && !misplaced && !unknown
            && at->get_name() == "move") {
            auto typed = typed_after(app, *at, argc, argv);
            std::string joined;
            for (const auto& word : typed.words) joined += (joined.empty() ? "" : "-") + word;
            bool holes
                = std::all_of(typed.words.begin(), typed.words.end(), [](const std::string& w) {
                      return std::regex_match(w, std::regex("[a-qA-Q][0-9]{1,2}"));
                  });
            if (holes && typed.words.size() >= 2)
                message += "; a move is one word, its holes joined by dashes: " + path
                    + typed.options + " " + joined;
        }
        message = plain_words(message);
        // The help of the command typed, which says what it takes (`halma --help` lists commands).
        std::cerr << "halma: " << message << "\nRun `" << path << " --help` for more.\n";
        return 2;
    }
    return exit_code;
}
