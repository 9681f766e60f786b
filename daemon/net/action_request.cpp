#include "daemon/net/action_request.h"

#include "daemon/net/config.h"
#include "daemon/wire/codec.h"

namespace halma::daemon {

namespace pb = ::halma::v1;

Action action_from(const pb::ActionRequest& request) {
    switch (request.action_case()) {
    case pb::ActionRequest::kMove:
        return action::Move { request.move() };
    case pb::ActionRequest::kChat:
        return action::Chat { request.chat() };
    case pb::ActionRequest::kVote:
        return action::Vote { wire::vote_kind_from_proto(request.vote()) };
    case pb::ActionRequest::kLeave:
        return action::Leave {};
    default:
        return action::Start { parse_bot_level(request.start().bot_level()) };
    }
}

} // namespace halma::daemon
