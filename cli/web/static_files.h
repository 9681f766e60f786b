// The page's HTML, CSS and JavaScript, compiled into halma (embed_files.cmake), so `halma web`
// needs no files beside the binary.
#pragma once

#include <optional>
#include <string_view>

namespace halma::web {

// The file served at `path` ("/index.html", "/js/board.js"), or nullopt.
std::optional<std::string_view> static_file(std::string_view path);

} // namespace halma::web
