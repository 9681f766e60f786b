#include "cli/web/api_bridge.h"

#include "cli/client/daemon_connection.h"
#include "cli/client/name_lookup.h"
#include "cli/client/output.h"

#include <google/protobuf/util/json_util.h>

namespace halma::web {

namespace pb = ::halma::v1;
using cli::to_json;

namespace {

// The bodies the page may send. Subscribing is the event stream's job (event_stream.h); closing
// a room for good is left to the CLI for now.
google::protobuf::Message* body_of(pb::Request& request, const std::string& kind) {
    if (kind == "status") return request.mutable_status();
    if (kind == "view") return request.mutable_view();
    if (kind == "list") return request.mutable_list();
    if (kind == "host") return request.mutable_host();
    if (kind == "join") return request.mutable_join();
    if (kind == "action") return request.mutable_action();
    return nullptr;
}

std::string bridge_error(const std::string& code, const std::string& message) {
    pb::Error error;
    error.set_message(message);
    // Not one of the daemon's codes: these say the bridge, not halmad, refused or failed.
    std::string out = to_json(error);
    return R"({"bridge_error":")" + code + R"(","error":)" + out + "}";
}

} // namespace

BridgeAnswer bridge_request(const std::string& kind, const std::string& body_json,
    const std::string& runtime_dir, std::chrono::milliseconds timeout) {
    pb::Request request;
    auto* body = body_of(request, kind);
    if (!body) return { 404, bridge_error("UNKNOWN_REQUEST", "no request named " + kind) };
    auto parsed
        = google::protobuf::util::JsonStringToMessage(body_json.empty() ? "{}" : body_json, body);
    if (!parsed.ok())
        return { 400,
            bridge_error("BAD_JSON", "not a " + kind + " request: " + parsed.ToString()) };
    // A connection per request: halmad's API is a local socket, connecting costs little, and no
    // state is shared between the HTTP server's threads.
    halma::cli::DaemonConnection daemon(runtime_dir, timeout);
    auto reply = daemon.call(std::move(request));
    if (!reply) return { 503, bridge_error("NO_DAEMON", reply.error().message) };
    // As the CLI does: the daemon could not tell a name that does not resolve from a machine
    // that refuses, and leaves the lookup to us (this request's thread may wait on it).
    if (reply->has_error() && reply->error().code() == pb::ERROR_CODE_UNAVAILABLE
        && !reply->error().unconfirmed_name().empty())
        if (auto not_found = cli::name_not_found(reply->error().unconfirmed_name()))
            reply->mutable_error()->set_message(*not_found);
    return { 200, to_json(*reply) };
}

} // namespace halma::web
