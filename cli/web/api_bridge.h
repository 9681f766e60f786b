// The page's requests: JSON bodies of the local API's requests (docs/api.md), sent to halmad as
// one Request each on a connection of their own, the Reply sent back as JSON. No game logic:
// the daemon decides, the bridge only translates.
#pragma once

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

// A message as protobuf JSON with the API's field names (RoomView -> {"your_turn": ...}), every
// field present, as `halma ... --json` prints it.
std::string to_json(const google::protobuf::Message& message);

} // namespace halma::web
