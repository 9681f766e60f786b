// The local API's RecordsRequest: the records of the games finished in the rooms this daemon
// hosts (RecordStore), listed or one of them in full. The records live in the state directory,
// which belongs to the service's user, so the CLI asks the daemon rather than read the files.
#include "daemon/net/api_service.h"

namespace halma::daemon {

namespace pb = wire::pb;

void ApiService::handle_records(const std::string& client, const pb::Request& request) {
    const RecordStore& store = host_.records();
    pb::Reply r;
    auto* out = r.mutable_records();
    if (const std::string& id = request.records().record(); !id.empty()) {
        auto text = store.read(id);
        if (!text) {
            reply_error(
                client, request.request_id(), pb::ERROR_CODE_BAD_REQUEST, text.error().message);
            return;
        }
        for (std::size_t at = 0; at < text->size();) {
            auto end = text->find('\n', at);
            if (end == std::string::npos) end = text->size();
            out->add_lines(text->substr(at, end - at));
            at = end + 1;
        }
    } else {
        auto listing = store.list();
        for (const auto& s : listing.records) {
            auto* summary = out->add_records();
            summary->set_id(s.id);
            summary->set_room(s.room);
            summary->set_game(static_cast<std::uint32_t>(s.game_number));
            summary->set_started_ms(s.started_ms);
            summary->set_ended_ms(s.ended_ms);
            summary->set_ending(s.ending);
            for (const auto& p : s.players) summary->add_players(p);
            for (int place : s.places) summary->add_places(static_cast<std::uint32_t>(place));
            summary->set_moves(static_cast<std::uint32_t>(s.moves));
        }
        for (const auto& u : listing.unreadable) out->add_unreadable(u);
    }
    reply(client, request.request_id(), r);
}

} // namespace halma::daemon
