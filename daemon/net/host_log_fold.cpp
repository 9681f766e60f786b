// HostService's side of folding a room's log on the disk, off the event loop. A room's log is
// folded in memory at every new game (and when it doubles), and its file follows, so that the
// disk holds no more than memory does. Writing the folded log means a new file, whose creation
// on a busy ext4 costs an inode search and on an SD card can wait for the journal: beside 200
// rooms of easy bots that was 50 files a second made on the loop. So the disk helper writes
// and flushes it, while the loop appends the room's new events to the old log as before (a
// crash meanwhile leaves that log whole); then the loop appends to the folded file the events
// logged since it was taken, and renames it over the log: no file is made on the loop.
#include "daemon/net/host_service.h"

#include <spdlog/spdlog.h>

namespace halma::daemon {

void HostService::fold_log_if_due(HostedRoom& room, const Now& now) {
    const RoomState& state = room.authority.state();
    if (state.folds() == room.kept_folds || room.fold.ticket != 0 || !room.read_only.empty()
        || now.steady < room.fold.not_before)
        return;
    // The games the folded log leaves out must be records on the disk first: until they are,
    // the log stays unfolded, which replays to the same room.
    if (!records_written(room)) return;
    const std::string& id = state.id();
    // Nobody waits for it: it joins the helper's next group of flushes.
    std::uint64_t ticket = disk_.run(store_.fold_file(id), store_.folding(id, state.log()), false);
    room.fold = HostedRoom::Fold { ticket, state.folds(), {}, false, {} };
    folds_in_flight_[ticket] = id;
}

void HostService::keep_for_fold(HostedRoom& room, const std::vector<RoomEvent>& events) {
    if (room.fold.ticket == 0 || room.fold.stale) return;
    if (room.fold.since.size() + events.size() > kFoldSinceMax) {
        spdlog::info("room {}: logged over {} events while the disk wrote its folded log; it is "
                     "folded afresh once the disk has written it",
            room.authority.state().config().name, kFoldSinceMax);
        room.fold.stale = true;
        room.fold.since.clear();
        room.fold.since.shrink_to_fit();
        return;
    }
    room.fold.since.insert(room.fold.since.end(), events.begin(), events.end());
}

void HostService::fold_written(
    std::uint64_t ticket, const std::optional<std::string>& failure, const Now& now) {
    auto in_flight = folds_in_flight_.find(ticket);
    if (in_flight == folds_in_flight_.end()) return;
    const std::string id = std::move(in_flight->second);
    folds_in_flight_.erase(in_flight);
    HostedRoom* room = find(id);
    // Closed meanwhile: its files went, or go, with the fold file (should the helper make it
    // just as the loop removes the directory, that removal fails, is logged, and the directory,
    // without a config, goes at the next start).
    if (!room || room->fold.ticket != ticket) return;
    auto discard = [&] { disk_.remove(store_.fold_file(id), id); };
    HostedRoom::Fold fold = std::exchange(room->fold, {});
    const RoomState& state = room->authority.state();
    const std::string& name = state.config().name;
    if (failure) {
        // Nothing is lost: the log is whole, only unfolded. Tried again after a while.
        spdlog::warn("room {}: cannot write its folded log ({}); its log stays as it is for now",
            name, *failure);
        room->fold.not_before = now.steady + kDiskRetry; // (a failed write leaves no file)
        return;
    }
    // Taken from a room that is not this one any more (reloaded from its files, its log
    // written whole), or the room logged too much since: taken afresh.
    if (fold.stale || !room->read_only.empty()) {
        discard();
        fold_log_if_due(*room, now);
        return;
    }
    // With every event the room logged since (in its log file too), it replays to the room as
    // the log does.
    if (auto done = store_.finish_fold(id, fold.since); !done) {
        spdlog::warn("room {}: cannot put its folded log in place ({}); its log stays as it is "
                     "for now",
            name, done.error().message);
        room->fold.not_before = now.steady + kDiskRetry;
        discard();
        return;
    }
    room->kept_folds = fold.folds;
    hand_to_disk(id); // the log's new file and its directory
    fold_log_if_due(*room, now); // folded again meanwhile (a short game): that one next
}

} // namespace halma::daemon
