#include "daemon/net/api_service.h"

#include "daemon/net/zmq_util.h"
#include "daemon/room/secrets.h"
#include "daemon/trust/host_key.h"
#include "daemon/wire/frames.h"
#include "halma/version.h"

#include <algorithm>
#include <spdlog/spdlog.h>
#include <zmq_addon.hpp>

namespace halma::daemon {

namespace pb = wire::pb;

namespace {

constexpr int kDrainBatch = 256;

std::string connection_text(pb::ConnectionState c) {
    switch (c) {
    case pb::CONNECTION_STATE_CONNECTED:
        return "connected to the host";
    case pb::CONNECTION_STATE_CONNECTING:
        return "connecting to the host...";
    default:
        return "disconnected from the host";
    }
}

} // namespace

PeerLinks::Deadline deadline_of(const pb::Request& request) {
    if (request.deadline_ms() == 0) return std::nullopt;
    return PeerLinks::Clock::time_point(std::chrono::milliseconds(request.deadline_ms()));
}

ApiService::ApiService(zmq::context_t& context, const Config& config, HostService& host,
    PeerLinks& peers, Discovery& discovery, bool bots)
    : config_(config)
    , host_(host)
    , peers_(peers)
    , discovery_(discovery)
    , bots_(bots)
    , socket_(context, zmq::socket_type::router) {
    // No ZMTP heartbeats: a local front end that goes away closes its ipc connection at once.
    tune_socket(socket_, config.max_message * 16, 0, 0);
    // Sending to a front end that has gone away fails at once: that ends its subscription.
    socket_.set(zmq::sockopt::router_mandatory, 1);
}

void ApiService::bind(const RuntimeDir& dir) {
    socket_.bind(dir.api_endpoint());
    if (auto ok = dir.restrict_socket(); !ok) throw std::runtime_error(ok.error().message);
}

void ApiService::on_readable(const Now& now) {
    for (int i = 0; i < kDrainBatch; ++i) {
        std::vector<zmq::message_t> frames;
        if (!zmq::recv_multipart(socket_, std::back_inserter(frames), zmq::recv_flags::dontwait))
            break;
        if (frames.empty()) continue;
        std::string client = frames[0].to_string();
        // A REQ socket puts an empty delimiter frame first; accept it so REQ front ends work too.
        std::size_t body = frames.size() == 3 && frames[1].size() == 0 ? 2 : 1;
        if (body == 2)
            req_clients_.insert(client);
        else
            req_clients_.erase(client);
        if (frames.size() != body + 1) {
            // Answered as the request the first frame names, if it names one: a front end
            // that matches replies by id waited out its timeout for one of id 0.
            std::uint64_t id = frames.size() > body
                ? wire::request_id_of(frames[body].data(), frames[body].size())
                : 0;
            reply_error(client, id, pb::ERROR_CODE_MALFORMED,
                "one frame per request, got " + std::to_string(frames.size() - 1));
            continue;
        }
        pb::Request request;
        if (auto rejection = wire::read_envelope(
                frames[body].data(), frames[body].size(), config_.max_message, request)) {
            spdlog::warn("front end: {}", rejection->message);
            reply_error(client, request.request_id(), rejection->code, rejection->message);
            continue;
        }
        handle(client, request, now);
    }
}

void ApiService::handle(const std::string& client, const pb::Request& request, const Now& now) {
    std::uint64_t id = request.request_id();
    // A front end that was stopped, or a daemon that was (SIGSTOP, swapped out), finds the
    // request here after its asker has given up and said so: it must not happen now.
    if (request.deadline_ms() != 0 && Now::current().monotonic_ms() >= request.deadline_ms()) {
        spdlog::info("front end: request {} read after its deadline; not carried out", id);
        reply_error(client, id, pb::ERROR_CODE_EXPIRED,
            "the request's deadline passed before halmad read it; not carried out");
        return;
    }
    if (request.request_key().size() > kMaxCommandId) {
        reply_error(client, id, pb::ERROR_CODE_MALFORMED,
            "a request key is at most " + std::to_string(kMaxCommandId) + " bytes");
        return;
    }
    switch (request.body_case()) {
    case pb::Request::kStatus: {
        pb::Reply r;
        r.set_version(wire::kProtocolVersion);
        r.set_request_id(id);
        status(r.mutable_status());
        // The hosted rooms' summaries as cached bytes, built again only for rooms that changed.
        reply_with_hosted(client, r, HostedSummaries::Into::kStatus);
        return;
    }
    case pb::Request::kHost:
        handle_host(client, request, now);
        return;
    case pb::Request::kList:
        handle_list(client, request, now);
        return;
    case pb::Request::kJoin:
        handle_join(client, request, now);
        return;
    case pb::Request::kView: {
        auto target = resolve(request.view().room());
        if (auto* error = std::get_if<std::string>(&target)) {
            reply_error(client, id, pb::ERROR_CODE_UNKNOWN_ROOM, *error);
            return;
        }
        pb::Reply r;
        if (!fill_view(std::get<Target>(target), r.mutable_view())) {
            const auto& rep = *std::get<Target>(target).replica;
            reply_error(client, id, pb::ERROR_CODE_UNAVAILABLE,
                "room " + (rep.name.empty() ? rep.room_id.substr(0, 8) : rep.name) + " at "
                    + rep.address
                    + ": this daemon has not heard from its host since it started (it may be "
                      "off or out of reach); the room shows here once it answers");
            return;
        }
        reply(client, id, r);
        return;
    }
    case pb::Request::kAction:
        handle_action(client, request, now);
        return;
    case pb::Request::kClose:
        handle_close(client, request, now);
        return;
    case pb::Request::kForgetHost:
        handle_forget_host(client, request);
        return;
    case pb::Request::kRecords:
        handle_records(client, request);
        return;
    case pb::Request::kSubscribe: {
        std::string room_id;
        if (!request.subscribe().room().empty()) {
            auto target = resolve(request.subscribe().room());
            if (auto* error = std::get_if<std::string>(&target)) {
                reply_error(client, id, pb::ERROR_CODE_UNKNOWN_ROOM, *error);
                return;
            }
            auto& t = std::get<Target>(target);
            room_id = t.hosted ? t.hosted->authority.state().id() : t.replica->room_id;
        }
        if (req_clients_.count(client)) {
            reply_error(client, id, pb::ERROR_CODE_BAD_REQUEST,
                "a REQ socket cannot receive events: subscribe from a DEALER socket");
            return;
        }
        // A subscription to the LAN's room list alone brings no room events (subscribe again
        // without `lan` for those).
        if (!request.subscribe().lan() || !request.subscribe().room().empty())
            subscribers_[client]
                = Subscription { room_id, room_id.empty() && request.subscribe().seated() };
        pb::Reply r;
        r.mutable_done()->set_room_id(room_id);
        r.mutable_done()->set_detail("subscribed");
        reply(client, id, r);
        if (request.subscribe().lan()) {
            // The list as it is now, then again whenever it changes.
            if (lan_subscribers_.empty()) listed_.clear(); // not kept up while nobody followed
            lan_subscribers_.insert(client);
            pb::Reply list;
            list_here(list.mutable_rooms(), true, true);
            reply(client, 0, list);
        }
        return;
    }
    default:
        reply_error(client, id, pb::ERROR_CODE_OUT_OF_PLACE, "not a request the daemon answers");
    }
}

void ApiService::status(pb::DaemonStatus* out) {
    out->set_version(kVersion);
    out->set_name(config_.name);
    out->set_listen(host_.address());
    out->set_protocol(wire::kProtocolVersion);
    out->set_uptime_s(static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::seconds>(
        std::chrono::steady_clock::now() - started_)
                                                     .count()));
    out->set_peers(static_cast<std::uint32_t>(host_.peers()));
    out->set_bots(bots_);
    fill_discovery(out->mutable_discovery());
    out->set_host_key(host_key_);
    out->set_key_fingerprint(key_fingerprint(host_key_));
    // The hosted rooms are appended by hosted_summaries_ (see the kStatus request).
    // Those not heard of yet too: a player whose laptop restarted while the host was off was
    // told "You are in no room yet".
    for (auto* r : peers_.replicas())
        r->state ? summarize_joined(*r, out->add_joined())
                 : summarize_unheard(*r, out->add_joined());
}

void ApiService::handle_list(
    const std::string& client, const pb::Request& request, const Now& now) {
    std::uint64_t id = request.request_id();
    const std::string& address = request.list().address();
    if (address.empty()) {
        pb::Reply r;
        r.set_version(wire::kProtocolVersion);
        r.set_request_id(id);
        list_here(r.mutable_rooms(), request.list().lan(), false);
        reply_with_hosted(client, r, HostedSummaries::Into::kRoomList);
        return;
    }
    auto addresses = join_addresses(address);
    if (addresses.empty()) {
        reply_error(client, id, pb::ERROR_CODE_BAD_REQUEST,
            "'" + address + "' is not host, host:port or [ipv6]:port");
        return;
    }
    std::string asked = addresses.front();
    // Asked of a machine by its mDNS name: its rooms are shown hosted there, as the LAN's list
    // shows them (they were shown at the address it resolved to).
    std::string machine = machine_named(address);
    peers_.list_rooms(
        asked,
        [this, client, id, asked, machine](const pb::HostMessage& answer) {
            if (answer.has_error()) {
                reply_error(client, id, answer.error());
                return;
            }
            pb::Reply r;
            *r.mutable_rooms() = answer.rooms();
            // What a host says of its rooms is untrusted: only what a front end needs is kept,
            // and the addresses are ours.
            for (auto& room : *r.mutable_rooms()->mutable_rooms()) {
                room.set_address(asked);
                room.clear_addresses();
                room.set_machine(machine);
                room.set_origin(pb::ROOM_ORIGIN_ASKED);
            }
            reply(client, id, r);
        },
        now, deadline_of(request));
}

void ApiService::handle_join(
    const std::string& client, const pb::Request& request, const Now& now) {
    const auto& j = request.join();
    std::uint64_t id = request.request_id();
    if (j.address().empty()) {
        // Through the host's index (its id, name or code), not a walk over every room; with no
        // name, the room this daemon hosts if it hosts just one.
        HostedRoom* found = nullptr;
        if (j.room().empty()) {
            if (host_.room_count() == 1) found = host_.rooms().front();
        } else if (auto named = host_.matching(j.room()); !named.empty()) {
            found = named.front();
        }
        if (!found) {
            if (!join_again(client, request, now)) join_on_lan(client, request, now);
            return;
        }
        if (auto why
            = role_change_refusal(found->authority.state(), found->local_member, j.spectate())) {
            reply_error(client, id, pb::ERROR_CODE_NOT_ALLOWED, *why);
            return;
        }
        auto ticket = host_.local_join(*found, j.spectate(), now);
        if (!ticket) {
            reply_error(client, id, wire::to_proto(ticket.error().code), ticket.error().message);
            return;
        }
        pb::Reply r;
        fill_view(Target { found, nullptr }, r.mutable_view());
        reply(client, id, r);
        return;
    }
    auto addresses = join_addresses(j.address());
    if (addresses.empty()) {
        reply_error(client, id, pb::ERROR_CODE_BAD_REQUEST,
            "'" + j.address() + "' is not host, host:port or [ipv6]:port");
        return;
    }
    join_at(client, id, std::move(addresses), 0, j.room(), j.spectate(), now, deadline_of(request));
}

void ApiService::reply_from_host(const std::string& client, std::uint64_t request_id,
    const pb::HostMessage& answer, const std::string& room_id, const std::string& detail) {
    if (answer.has_error()) {
        // A host's error with neither a code nor a word printed a bare "halma:".
        pb::Error error = answer.error();
        if (error.code() == pb::ERROR_CODE_UNSPECIFIED) error.set_code(pb::ERROR_CODE_UNAVAILABLE);
        if (error.message().empty()) error.set_message("the host refused, and said nothing of why");
        reply_error(client, request_id, error);
        return;
    }
    pb::Reply r;
    auto* replica = peers_.find(room_id);
    if (replica && fill_view(Target { nullptr, replica }, r.mutable_view())) {
        reply(client, request_id, r);
        return;
    }
    r.mutable_done()->set_room_id(room_id);
    r.mutable_done()->set_detail(detail);
    reply(client, request_id, r);
}

void ApiService::reply(const std::string& client, std::uint64_t request_id, pb::Reply& r) {
    r.set_version(wire::kProtocolVersion);
    r.set_request_id(request_id);
    deliver(client, r.SerializeAsString());
}

void ApiService::reply_with_hosted(
    const std::string& client, const pb::Reply& r, HostedSummaries::Into into) {
    deliver(client, hosted_summaries_.serialize(r, into, host_.rooms(), discovery_.news().machine));
}

void ApiService::deliver(const std::string& client, std::string_view payload) {
    auto now = std::chrono::steady_clock::now();
    if (outbox_.reply(client, payload, req_clients_.count(client) > 0, now)
        == FrontEndOutbox::Outcome::kGone) {
        spdlog::debug("front end gone before its reply");
        gone(client);
    }
}

void ApiService::gone(const std::string& client) {
    req_clients_.erase(client);
    subscribers_.erase(client);
    lan_subscribers_.erase(client);
    outbox_.forget(client);
}

void ApiService::retry_outbox(std::chrono::steady_clock::time_point now) {
    if (!outbox_.retry_due()) return;
    auto marker = [this](const std::string& room_id, std::uint64_t missed) {
        return missed_marker(room_id, missed);
    };
    for (const auto& client : outbox_.retry(now, marker)) gone(client);
}

std::string ApiService::missed_marker(const std::string& room_id, std::uint64_t missed) {
    pb::Reply r;
    r.set_version(wire::kProtocolVersion);
    auto* e = r.mutable_event();
    e->set_room_id(room_id);
    std::string events = std::to_string(missed) + (missed == 1 ? " event" : " events");
    const RoomState* state = nullptr;
    pb::ConnectionState connection = pb::CONNECTION_STATE_CONNECTED;
    MemberId me = kNoMember;
    if (auto* hosted = room_id.empty() ? nullptr : host_.find(room_id)) {
        state = &hosted->authority.state();
        me = hosted->local_member;
    } else if (auto* replica = room_id.empty() ? nullptr : peers_.find(room_id);
               replica && replica->state) {
        state = &*replica->state;
        me = replica->me;
        connection = replica->connection;
    }
    if (room_id.empty()) {
        e->set_text(events
            + " of several rooms missed while this front end did not read: read "
              "their views again");
    } else if (!state) {
        // Its last event (closed, or this daemon left it) was among those missed: the view says
        // which no more, so neither does this.
        e->set_text(events + " of room " + room_id.substr(0, 8)
            + " missed while this front end did not read; the room is no longer on this "
              "daemon (closed, or left)");
    } else {
        e->set_text(events + " of room " + state->config().name
            + " missed while this front end did not read: read the view again");
        e->set_read_only(read_only(room_id));
        const Member* self = state->member(me);
        e->set_your_turn(self && self->seat != kNoSeat && self->seat == state->seat_to_move());
        e->set_phase(wire::to_proto(state->phase()));
    }
    e->set_connection(connection);
    return r.SerializeAsString();
}

void ApiService::reply_error(const std::string& client, std::uint64_t request_id,
    pb::ErrorCode code, const std::string& message) {
    pb::Reply r;
    wire::set_error(r.mutable_error(), code, message);
    reply(client, request_id, r);
}

void ApiService::reply_error(
    const std::string& client, std::uint64_t request_id, const pb::Error& error) {
    pb::Reply r;
    wire::set_error(r.mutable_error(), error.code(), error.message());
    r.mutable_error()->set_unconfirmed_name(error.unconfirmed_name());
    reply(client, request_id, r);
}

void ApiService::room_changed(
    const RoomState& state, const RoomEvent* event, MemberId me, pb::ConnectionState connection) {
    hosted_summaries_.forget(state.id());
    note_for_lan_list(state);
    // Told even with no subscriber: a front end that subscribes later is told of the next
    // change, not of this one again.
    // Only rooms that are read-only have an entry: the common case (every move) looks, finds
    // none and changes nothing.
    std::string read_only_now = read_only(state.id());
    auto told = told_read_only_.find(state.id());
    bool read_only_changed = read_only_now
        != (told == told_read_only_.end() ? std::string_view() : std::string_view(told->second));
    if (read_only_changed && read_only_now.empty())
        told_read_only_.erase(told);
    else if (read_only_changed)
        told_read_only_.insert_or_assign(state.id(), read_only_now);
    // Most changes on a busy host are in rooms nobody here watches (bot-only rooms): the event
    // is made for a front end only if one follows this room. One that follows only the rooms
    // where our player sits (halma play's line for its other rooms) is told of our own joining
    // and leaving too, the seat taken or just given up.
    const Member* self = state.member(me);
    bool seated = (self && self->seat != kNoSeat)
        || (event && me != kNoMember && wire::member_of(*event) == me);
    auto follows = [&](const Subscription& s) {
        return s.room.empty() ? !s.seated || seated : s.room == state.id();
    };
    bool followed = std::any_of(
        subscribers_.begin(), subscribers_.end(), [&](const auto& s) { return follows(s.second); });
    if (!followed) return;
    pb::Reply r;
    r.set_version(wire::kProtocolVersion);
    auto* e = r.mutable_event();
    e->set_room_id(state.id());
    e->set_read_only(read_only_now);
    if (event) {
        wire::to_proto(*event, e->mutable_event());
        if (auto member = wire::member_of(*event)) e->set_member_name(state.name_of(*member));
        e->set_text(wire::describe(state, *event));
    } else if (read_only_changed) {
        e->set_text(read_only_now.empty()
                ? "room " + state.config().name + " takes changes again"
                : "room " + state.config().name + " is read-only: " + read_only_now);
    } else {
        e->set_text(connection_text(connection));
    }
    e->set_connection(connection);
    e->set_your_turn(self && self->seat != kNoSeat && self->seat == state.seat_to_move());
    e->set_phase(wire::to_proto(state.phase()));
    std::string payload = r.SerializeAsString();
    auto now = std::chrono::steady_clock::now();
    std::vector<std::string> gone_clients;
    for (const auto& [client, subscription] : subscribers_) {
        if (!follows(subscription)) continue;
        // One that is behind (not reading) misses this event, counted: once it reads again it
        // is told to read the view again (front_end_outbox.h). One that is gone loses its
        // subscription.
        if (outbox_.event(client, payload, state.id(), now) == FrontEndOutbox::Outcome::kGone)
            gone_clients.push_back(client);
    }
    for (const auto& client : gone_clients) gone(client);
}

} // namespace halma::daemon
