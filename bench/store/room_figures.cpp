// bench_room_figures STATE_DIR: what each room a (stopped) halmad hosts costs to keep and to
// restore, read the way halmad reads it at start-up: its events file (bytes, events), the
// events it ever made (its seq: what the log would hold without compaction), the snapshot a
// joiner gets (bytes), and the time to load and restore it (RoomStore::load, RoomAuthority::
// restore; the best of 5). One line of key=value per room. bench_room_compaction.py runs it.
#include "daemon/net/room_store.h"
#include "daemon/room/room_authority.h"
#include "daemon/wire/codec.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>

using namespace halma::daemon;

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: bench_room_figures STATE_DIR\n";
        return 2;
    }
    std::filesystem::path state_dir = argv[1];
    RoomStore store(state_dir);
    double best_ms = 1e300;
    StoreContents contents;
    for (int i = 0; i < 5; ++i) {
        auto start = std::chrono::steady_clock::now();
        contents = store.load();
        for (const auto& room : contents.rooms) {
            auto restored = RoomAuthority::restore(room.config, AuthorityOptions {}, 1, room.events,
                room.members.tokens, Now::current());
            if (!restored) {
                std::cerr << "room " << room.config.name
                          << " does not restore: " << restored.error().message << "\n";
                return 1;
            }
        }
        best_ms = std::min(best_ms,
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count());
    }
    for (const auto& room : contents.rooms) {
        auto restored = RoomAuthority::restore(
            room.config, AuthorityOptions {}, 1, room.events, room.members.tokens, Now::current());
        halma::v1::Snapshot snapshot;
        halma::daemon::wire::to_proto(restored->state(), &snapshot);
        auto events_file = state_dir / "rooms" / room.config.room_id / "events";
        std::cout << "room=" << room.config.name
                  << " events_bytes=" << std::filesystem::file_size(events_file)
                  << " events_kept=" << room.events.size()
                  << " events_made=" << restored->state().seq()
                  << " games=" << restored->state().game_number()
                  << " snapshot_bytes=" << snapshot.ByteSizeLong() << " restore_ms=" << std::fixed
                  << std::setprecision(3) << best_ms << "\n";
    }
    return 0;
}
