// The page's requests: JSON bodies of the local API's requests (docs/api.md), sent to halmad as
// one Request each on a connection of their own, the Reply sent back as JSON. No game logic:
// the daemon decides, the bridge only translates.
#pragma once

#include "cli/client/output.h"

#include <chrono>
#include <google/protobuf/message.h>
#include <string>

namespace halma::web {

struct BridgeAnswer {
    int http_status = 200; // 200 whenever halmad answered, even with an error
    std::string json;
};

// `kind` is the Request body's field name: status, view, list, host, join or action.
// `body_json` is that body's message in protobuf JSON ("{}" for an empty one).
BridgeAnswer bridge_request(const std::string& kind, const std::string& body_json,
    const std::string& runtime_dir, std::chrono::milliseconds timeout);

// Messages go to the page as `halma ... --json` prints them: cli::to_json (cli/client/output.h).
using cli::to_json;

} // namespace halma::web
