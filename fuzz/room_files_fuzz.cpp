// A room a host kept on disk (daemon/net/room_store.h): its config, members and events files,
// damaged in every way, loaded as a restarting host loads them (RoomStore::load, in a private
// directory on a tmpfs when there is one) and resumed as HostService::restore_rooms resumes them
// (RoomAuthority::restore, which replays and folds the log). A room that loads must be one a
// guest can be sent.
#include "daemon/net/room_store.h"
#include "daemon/wire/codec.h"
#include "fuzz_check.h"
#include "fuzz_room.h"
#include "room_files.h"

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace halma::fuzz;
namespace wire = halma::daemon::wire;
namespace pb = wire::pb;
namespace fs = std::filesystem;

namespace {

// Under $HALMA_FUZZ_TMP when set (scripts/fuzz.sh: a directory it removes afterwards, since
// libFuzzer ends a run without running destructors), else on /dev/shm or in the temp directory.
const fs::path& state_dir() {
    // Never destroyed: RemoveAtExit below needs it after the function's statics are gone.
    static const fs::path& dir = *new fs::path([] {
        const char* given = std::getenv("HALMA_FUZZ_TMP");
        std::string base = given && *given ? given
            : fs::is_directory("/dev/shm") ? "/dev/shm"
                                           : fs::temp_directory_path().string();
        std::string pattern = base + "/halma-fuzz-XXXXXX";
        if (!mkdtemp(pattern.data())) broken("mkdtemp failed");
        return fs::path(pattern);
    }());
    return dir;
}

// Gone at exit, not left in /dev/shm (when the process ends through exit()).
struct RemoveAtExit {
    ~RemoveAtExit() {
        std::error_code ec;
        fs::remove_all(state_dir(), ec);
    }
} remove_at_exit;

void write_file(const fs::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) broken("cannot write", path.string());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    RoomFiles files = unpack({ reinterpret_cast<const char*>(data), size });
    fs::path room = state_dir() / "rooms" / std::string(kRoomId);
    std::error_code ec;
    fs::remove_all(state_dir() / "rooms", ec);
    fs::create_directories(room);
    fs::permissions(state_dir() / "rooms", fs::perms::owner_all);
    fs::permissions(room, fs::perms::owner_all);
    write_file(room / "members", files.members);
    write_file(room / "events", files.events);
    write_file(room / "config", files.config); // last, as RoomStore::create writes it

    RoomStore store(state_dir());
    for (auto& kept : store.load().rooms) {
        auto authority = RoomAuthority::restore(std::move(kept.config), {}, 1, kept.events,
            kept.members.tokens, fuzz_now(), kept.members.kept_seats);
        if (!authority) continue; // refused with a reason, as the host logs it
        pb::Snapshot snapshot;
        wire::to_proto(authority->state(), &snapshot);
        if (auto back = wire::state_from_proto(snapshot); !back)
            broken("a room resumed from disk is one no guest accepts", back.error().message);
    }
    return 0;
}
