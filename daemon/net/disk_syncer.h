// Flushing hosted rooms' files to the disk, off the event loop. Every event is written to its
// log (into the kernel, which a crash of halmad cannot lose) before anyone hears of it, and so is
// a new room's config and a changed members file; the fsync that makes them survive a power cut
// as well runs here, on a helper thread, because on a Raspberry Pi's SD card it can take tens of
// milliseconds, which every room would wait for. The loop never waits for the disk.
// Jobs wait in a map keyed by path: a file already waiting for its flush needs no second one
// (the flush covers everything written before it starts), so a chat flood queues one job, not
// thousands, and the queue holds at most one job per file. The helper opens the file when its
// turn comes, so it flushes the file at that path now (a log rewritten meanwhile included).
// Group commit: the loop starts the helper once a pass, after that pass's messages are sent
// (so a move reaches the players before the helper competes for a core), and the helper then
// gathers what the next kFlushGroupWindow brings before it flushes. A person's moves, seconds
// apart, are each flushed within that window; a burst of bot moves or chat in one room costs one
// flush per window instead of one per event, which on a host's disk is most of its work per
// move (docs/scaling.md) and on an SD card its wear. A power cut can lose the events of the
// window and the flush (a crash of halmad alone loses none).
// Besides flushes, it writes whole files (a finished game's record: a new file, whose creation
// on a busy ext4 can take milliseconds of inode search, and on an SD card waits for the journal)
// and removes them (the oldest records, past records-kept), and does other disk work whose
// outcome the loop waits for without blocking (a new room's files: run()), so the loop never
// creates or deletes a file while rooms are playing.
// A batch of many files on one file system (hundreds of busy rooms) is flushed by one syncfs(2):
// fdatasync file by file costs a journal commit and a disk cache flush each, which was most of
// the helper's time beside 200 rooms of easy bots, and on an SD card would stretch the window
// from milliseconds to seconds. If a syncfs fails, that batch is flushed again file by file, to
// find the rooms whose data was lost, and so is every batch after it.
// Failures wait for the loop in a map, one per label (the latest reason): at most one per room
// and per file of the daemon's own, however many flushes fail. An inproc PAIR socket only rings
// the loop's bell when the map (or the list of finished runs) stops being empty, so it never
// holds more than two messages: a message per failure was dropped past the pipe's high-water
// mark (2000) when a disk failed under more rooms than that, and their rooms were never told. Each
// request gets a ticket, so the loop can ask whether a file it must rely on (a game's record,
// before the log that held the game is folded) is on the disk yet, and wait for it in the rare case
// it must (a room closing).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <sys/types.h>
#include <thread>
#include <unordered_map>
#include <vector>
#include <zmq.hpp>

namespace halma::daemon {

inline constexpr std::chrono::milliseconds kFlushGroupWindow { 20 };
// Files to flush on one file system in a batch from which one syncfs flushes them all.
inline constexpr std::size_t kSyncfsFrom = 4;

class DiskSyncer {
public:
    explicit DiskSyncer(
        zmq::context_t& context, std::chrono::milliseconds group_window = kFlushGroupWindow);
    ~DiskSyncer();
    DiskSyncer(const DiskSyncer&) = delete;
    DiskSyncer& operator=(const DiskSyncer&) = delete;

    // The loop's end of the pipe, to poll for failures.
    zmq::socket_t& socket() { return socket_; }
    // Flushes the file (or directory) at `path` to the disk, on the helper thread, once start()
    // has been called; a failure comes back with `label`. A path that is gone by then (its room
    // closed) is not a failure. Returns the request's ticket (they count up from 1).
    std::uint64_t sync(const std::filesystem::path& path, const std::string& label);
    // Replaces the file at `path` by `bytes`, atomically and on the disk (write_file_atomically
    // with Flush::kNow), on the helper thread. A later write or removal of the path while this
    // one waits replaces it.
    std::uint64_t write(
        const std::filesystem::path& path, std::string bytes, const std::string& label);
    // Removes the file at `path` (gone already is not a failure), then flushes its directory.
    std::uint64_t remove(const std::filesystem::path& path, const std::string& label);
    // Disk work that returns why it failed, or nullopt: done on the helper thread without the
    // group window (someone waits for it), in turn with the requests before it. Its outcome
    // comes back through take_finished(), and rings the socket. `key` names what it works on
    // (a new room's directory); a second run() with the same key while the first waits
    // replaces it (a flush or write of that path does not). Work nobody waits for (a room's
    // folded log: `waited_for` false) keeps the group window, as a flush does.
    using Work = std::function<std::optional<std::string>()>;
    std::uint64_t run(const std::filesystem::path& key, Work work, bool waited_for = true);
    // Blocks until every request up to `ticket` was tried (at once, not after the group window):
    // only for the rare moment a file must be on the disk before the loop goes on.
    void wait(std::uint64_t ticket);
    // Takes back a write of `path` the helper has not begun (true: the caller writes it now);
    // false if none is waiting (begun, done, replaced by a removal, or never asked for).
    bool withdraw(const std::filesystem::path& path);
    // Whether every flush asked for with a ticket in [first, last] is done and none of them
    // failed. Conservative: false also when a flush of another file failed in between.
    bool flushed(std::uint64_t first, std::uint64_t last) const;
    // Whether the helper has tried the request with this ticket (done, or failed).
    bool tried(std::uint64_t ticket) const { return done_.load() >= ticket; }
    // Starts the helper on the files queued since the last start (the loop calls it once a pass).
    void start();
    // Files waiting now (for tests and the log).
    std::size_t queued() const;
    // Flushes done so far, one per file per batch (for tests).
    std::uint64_t flushes() const { return flushes_.load(); }
    // Of those, how many batches were flushed by syncfs (for tests).
    std::uint64_t file_system_syncs() const { return file_system_syncs_.load(); }
    // After the socket polled readable: a label whose flush failed, and why (each label once,
    // however often it failed since it was last taken); nullopt when none is left.
    std::optional<std::pair<std::string, std::string>> take_failure();
    // After the socket polled readable: a run() that finished, by its ticket, and why it failed
    // (nullopt: it did its work); nullopt when none is left. Taken after the failures, in the
    // same turn: take_failure() answers the bell for both.
    struct Finished {
        std::uint64_t ticket = 0;
        std::optional<std::string> failure;
    };
    std::optional<Finished> take_finished();

private:
    void run(zmq::socket_t pipe);

    zmq::socket_t socket_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    enum class Kind { kFlush, kWrite, kRemove, kRun };
    struct Job {
        std::string label;
        // The other labels that asked for the same path while it waited (a directory many rooms
        // write in, STATE_DIR/rooms or records): a failure is told to each of them, not only
        // to the first, which may have closed meanwhile. At most one per room.
        std::vector<std::string> other_labels;
        std::uint64_t ticket = 0; // the latest request for the path
        Kind kind = Kind::kFlush;
        std::string bytes; // what a write puts there
        Work work; // what a run does
    };
    std::uint64_t queue(const std::filesystem::path& path, Kind kind, const std::string& label,
        std::string bytes, Work work = {}, bool hurry = false);
    // Does one job; the reason if it failed.
    static std::optional<std::string> carry_out(const std::filesystem::path& path, const Job& job);
    // One syncfs for the files (of one file system); the reason if it failed.
    std::optional<std::string> sync_file_system(dev_t device,
        const std::vector<std::pair<const std::filesystem::path*, const Job*>>& files);
    // A descriptor on each file system syncfs was asked of, opened at its first batch and kept:
    // a file system's write-back error is reported once to each descriptor open when it
    // happened, so one opened for each syncfs would miss an error another process's syncfs
    // (`sync -f`) saw first. Only the helper touches it.
    std::unordered_map<dev_t, int> file_system_fds_;
    std::unordered_map<std::string, Job> pending_; // by the path's text
    std::uint64_t issued_ = 0; // the last ticket given out
    bool waiting_ = false; // jobs queued that start() has not started yet
    bool started_ = false; // start() has started jobs the helper has not taken yet
    bool hurry_ = false; // wait() is blocking the loop: no group window
    std::condition_variable batch_done_; // for wait()
    std::chrono::milliseconds group_window_;
    std::atomic<std::uint64_t> flushes_ { 0 };
    std::atomic<std::uint64_t> file_system_syncs_ { 0 };
    // After a syncfs failed, files are flushed one by one for good: syncfs reports a file
    // system's write-back error once, to whoever asks first, so it cannot tell which room's
    // data was lost, and a later batch would not hear of it at all. Only the helper touches it.
    bool file_by_file_ = false;
    std::atomic<std::uint64_t> done_ { 0 }; // every ticket up to this one was tried
    std::atomic<std::uint64_t> failed_ { 0 }; // the highest ticket whose flush failed
    std::map<std::string, std::string> failures_; // label -> why, until take_failure()
    // Runs done, until take_finished(): one per run() asked for, and the loop asks for a
    // bounded number at a time (HostService::kMaxRoomsBeingMade rooms being made, and a folded
    // log per hosted room at most).
    std::vector<Finished> finished_;
    bool stopping_ = false;
    std::thread worker_;
};

} // namespace halma::daemon
