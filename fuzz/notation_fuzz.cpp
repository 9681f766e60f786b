// The text forms a player or a file gives the engine: holes, moves and hop paths
// (engine/notation), positions and rules (Position::parse, Rules::parse). Whatever parses must
// print as text that parses back to the same thing.
#include "engine/notation.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "fuzz_check.h"

#include <string_view>

using namespace halma::engine;
using halma::fuzz::broken;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    if (auto cell = parse_cell(text)) {
        auto back = parse_cell(cell_name(*cell));
        if (!back || *back != *cell) broken("a hole's name does not read back", cell_name(*cell));
    }
    if (auto path = parse_path(text)) {
        auto back = parse_path(path_name(*path));
        if (!back || *back != *path) broken("a path's name does not read back", path_name(*path));
    }
    if (auto rules = Rules::parse(text)) {
        auto back = Rules::parse(rules->to_string());
        if (!back || !(*back == *rules)) broken("rules do not read back", rules->to_string());
    }
    if (auto position = Position::parse(text)) {
        auto back = Position::parse(position->to_string());
        if (!back || !(*back == *position))
            broken("a position does not read back", position->to_string());
    }
    return 0;
}
