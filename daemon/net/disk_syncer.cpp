#include "daemon/net/disk_syncer.h"

#include "daemon/net/durable_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace halma::daemon {

namespace {

constexpr const char* kEndpoint = "inproc://halmad-disk";

} // namespace

// Failures go back as [label][0][reason].
void DiskSyncer::run(zmq::socket_t pipe) {
    for (;;) {
        std::unordered_map<std::string, Job> jobs;
        std::uint64_t taken = 0; // every ticket given out so far is in this batch or done
        {
            std::unique_lock lock(mutex_);
            // Only start() (or a stop) lets a batch begin: jobs queued in the middle of a loop
            // pass wait until its messages are sent.
            wake_.wait(lock, [&] { return stopping_ || started_; });
            // Group commit: the writes of the next moment join this batch, and a file written
            // many times in it is flushed once. A stop cuts the wait short.
            wake_.wait_for(lock, group_window_, [&] { return stopping_ || hurry_; });
            started_ = hurry_ = false; // whatever was started is in this batch
            // The jobs still queued are done first: a clean stop leaves every event on the disk.
            if (pending_.empty()) {
                if (stopping_) return;
                done_.store(issued_);
                batch_done_.notify_all();
                continue;
            }
            jobs.swap(pending_);
            taken = issued_;
        }
        std::vector<std::pair<std::filesystem::path, Job>> batch;
        batch.reserve(jobs.size());
        for (auto& [path, job] : jobs) batch.emplace_back(path, std::move(job));
        // In the order asked for (a path's latest request): a game's record is on the disk
        // before the log whose next game's events fold it away, should power fail half-way.
        std::sort(batch.begin(), batch.end(),
            [](const auto& a, const auto& b) { return a.second.ticket < b.second.ticket; });
        auto fail = [&](const std::filesystem::path& path, const Job& job, const std::string& why) {
            spdlog::error("keeping {} on the disk failed: {}", path.string(), why);
            if (job.ticket > failed_.load()) failed_.store(job.ticket);
            bool ring = false;
            {
                std::lock_guard lock(mutex_);
                ring = failures_.empty();
                failures_[job.label] = why;
                for (const auto& label : job.other_labels) failures_[label] = why;
            }
            // Never blocks: at shutdown nobody reads it any more.
            if (ring) (void)pipe.send(zmq::str_buffer("!"), zmq::send_flags::dontwait);
        };
        // Writes and removals one by one (a game's end: rare); flushes by file system, the file
        // systems in the order of their oldest request (the records directory may be a mount
        // of its own).
        using Files = std::vector<std::pair<const std::filesystem::path*, const Job*>>;
        std::vector<std::pair<dev_t, Files>> flushes;
        for (const auto& [path, job] : batch) {
            struct stat st { };
            if (job.kind == Kind::kRun) {
                auto failure = job.work();
                bool ring = false;
                {
                    std::lock_guard lock(mutex_);
                    ring = finished_.empty();
                    finished_.push_back({ job.ticket, std::move(failure) });
                }
                if (ring) (void)pipe.send(zmq::str_buffer("!"), zmq::send_flags::dontwait);
                continue;
            }
            if (job.kind != Kind::kFlush) {
                if (auto why = carry_out(path, job)) fail(path, job, *why);
            } else if (::stat(path.c_str(), &st) == 0) {
                auto device = std::find_if(flushes.begin(), flushes.end(),
                    [&](const auto& d) { return d.first == st.st_dev; });
                if (device == flushes.end())
                    device = flushes.emplace(flushes.end(), st.st_dev, Files {});
                device->second.emplace_back(&path, &job);
                continue;
            } else if (errno != ENOENT) { // gone: its room was closed, nothing to keep
                fail(path, job, std::strerror(errno));
            }
            flushes_.fetch_add(1);
        }
        for (const auto& [device, files] : flushes) {
            bool one_by_one = file_by_file_ || files.size() < kSyncfsFrom;
            if (!one_by_one) {
                if (auto why = sync_file_system(device, files)) {
                    spdlog::warn("syncfs failed ({}): flushing file by file from now on", *why);
                    file_by_file_ = one_by_one = true;
                }
            }
            if (one_by_one)
                for (const auto& [path, job] : files)
                    if (auto why = carry_out(*path, *job)) fail(*path, *job, *why);
            flushes_.fetch_add(files.size());
        }
        {
            std::lock_guard lock(mutex_);
            done_.store(taken);
        }
        batch_done_.notify_all();
    }
}

std::optional<std::string> DiskSyncer::sync_file_system(
    dev_t device, const std::vector<std::pair<const std::filesystem::path*, const Job*>>& files) {
    file_system_syncs_.fetch_add(1);
    auto kept = file_system_fds_.find(device);
    if (kept == file_system_fds_.end()) {
        // Any of the files will do (a room closed meanwhile takes its files along); its
        // directory is held rather than the file, which a fold replaces, unless the directory
        // is on another file system (the file is the root of a mount). Opened before this
        // batch's syncfs, it reports any write-back error since, whoever else saw it first.
        for (const auto& [path, job] : files) {
            for (const auto& holder : { path->parent_path(), *path }) {
                int fd = ::open(holder.c_str(), O_RDONLY | O_CLOEXEC);
                struct stat st { };
                if (fd >= 0 && ::fstat(fd, &st) == 0 && st.st_dev == device) {
                    kept = file_system_fds_.emplace(device, fd).first;
                    break;
                }
                if (fd >= 0)
                    ::close(fd);
                else if (errno != ENOENT)
                    return std::strerror(errno);
            }
            if (kept != file_system_fds_.end()) break;
        }
        if (kept == file_system_fds_.end()) return std::nullopt; // every one gone: nothing to keep
    }
    if (::syncfs(kept->second) != 0) return std::strerror(errno);
    return std::nullopt;
}

std::optional<std::string> DiskSyncer::carry_out(
    const std::filesystem::path& path, const Job& job) {
    if (job.kind == Kind::kWrite) {
        auto written = write_file_atomically(path, job.bytes, Flush::kNow);
        if (!written) return written.error().message;
        return std::nullopt;
    }
    if (job.kind == Kind::kRemove) {
        std::error_code ec;
        std::filesystem::remove(path, ec);
        if (ec) return ec.message();
        auto synced = sync_directory(path.parent_path());
        if (!synced) return synced.error().message;
        return std::nullopt;
    }
    // A descriptor opened now still reports a write-back error nobody has seen yet.
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) return std::nullopt; // its room was closed: nothing to keep
    // A file's data (and its size) is what a reload needs; a directory's entries are its
    // metadata, which only fsync covers.
    struct stat st { };
    bool directory = fd >= 0 && ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
    std::optional<std::string> why;
    if (fd < 0 || (directory ? ::fsync(fd) : ::fdatasync(fd)) != 0) why = std::strerror(errno);
    if (fd >= 0) ::close(fd);
    return why;
}

DiskSyncer::DiskSyncer(zmq::context_t& context, std::chrono::milliseconds group_window)
    : socket_(context, zmq::socket_type::pair)
    , group_window_(group_window) {
    socket_.set(zmq::sockopt::linger, 0);
    socket_.bind(kEndpoint);
    // Connected before the thread starts, as BotPool does: a PAIR refuses to send until then.
    zmq::socket_t pipe(context, zmq::socket_type::pair);
    pipe.connect(kEndpoint);
    worker_ = std::thread([this, p = std::move(pipe)]() mutable { run(std::move(p)); });
}

DiskSyncer::~DiskSyncer() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    worker_.join();
    for (const auto& [device, fd] : file_system_fds_) ::close(fd);
}

std::uint64_t DiskSyncer::queue(const std::filesystem::path& path, Kind kind,
    const std::string& label, std::string bytes, Work work, bool hurry) {
    std::lock_guard lock(mutex_);
    std::uint64_t ticket = ++issued_;
    if (hurry) hurry_ = true; // someone waits for it: no group window
    // Called for every event a host writes: the key is the path's text, hashed (a map of
    // std::filesystem::path compares paths part by part), and a path already waiting costs no
    // copy of the label.
    auto [it, fresh] = pending_.try_emplace(path.native());
    Job& job = it->second;
    if (fresh) waiting_ = true;
    // Whoever asked before (for a flush the new request replaces or joins) hears of a failure.
    if (!fresh && label != job.label
        && std::find(job.other_labels.begin(), job.other_labels.end(), label)
            == job.other_labels.end())
        job.other_labels.push_back(label);
    if (fresh || kind != Kind::kFlush) {
        // New; or the latest content, or the removal, is what the path must end up with.
        job.ticket = ticket;
        job.kind = kind;
        job.bytes = std::move(bytes);
        job.work = std::move(work);
        if (fresh) job.label = label;
    } else {
        // A flush that has not started covers this write too; so does a whole write, and a
        // removal leaves nothing to flush.
        job.ticket = ticket;
    }
    return job.ticket;
}

std::uint64_t DiskSyncer::sync(const std::filesystem::path& path, const std::string& label) {
    return queue(path, Kind::kFlush, label, {});
}

std::uint64_t DiskSyncer::write(
    const std::filesystem::path& path, std::string bytes, const std::string& label) {
    return queue(path, Kind::kWrite, label, std::move(bytes));
}

std::uint64_t DiskSyncer::remove(const std::filesystem::path& path, const std::string& label) {
    return queue(path, Kind::kRemove, label, {});
}

std::uint64_t DiskSyncer::run(const std::filesystem::path& key, Work work, bool waited_for) {
    // Queued apart from the flushes and writes of the same path (no path starts with a space),
    // which would otherwise take over its ticket.
    return queue(" run " + key.native(), Kind::kRun, "", {}, std::move(work), waited_for);
}

bool DiskSyncer::withdraw(const std::filesystem::path& path) {
    std::lock_guard lock(mutex_);
    auto it = pending_.find(path.native());
    if (it == pending_.end() || it->second.kind != Kind::kWrite) return false;
    pending_.erase(it);
    return true;
}

void DiskSyncer::wait(std::uint64_t ticket) {
    std::unique_lock lock(mutex_);
    if (done_.load() >= ticket) return;
    started_ = hurry_ = true;
    waiting_ = false;
    wake_.notify_one();
    batch_done_.wait(lock, [&] { return stopping_ || done_.load() >= ticket; });
}

void DiskSyncer::start() {
    {
        std::lock_guard lock(mutex_);
        if (!std::exchange(waiting_, false)) return;
        started_ = true;
    }
    wake_.notify_one();
}

bool DiskSyncer::flushed(std::uint64_t first, std::uint64_t last) const {
    // failed_ is stored before done_ (both by the helper): a failure in the batch that reached
    // `last` is seen here whenever done_ is.
    return done_.load() >= last && failed_.load() < first;
}

std::size_t DiskSyncer::queued() const {
    std::lock_guard lock(mutex_);
    return pending_.size();
}

std::optional<std::pair<std::string, std::string>> DiskSyncer::take_failure() {
    // The bell first: rung when the map stopped being empty, it is answered by taking every
    // failure, and a failure added after the map is emptied rings it again.
    zmq::message_t bell;
    while (socket_.recv(bell, zmq::recv_flags::dontwait)) { }
    std::lock_guard lock(mutex_);
    if (failures_.empty()) return std::nullopt;
    auto node = failures_.extract(failures_.begin());
    return std::pair { std::move(node.key()), std::move(node.mapped()) };
}

std::optional<DiskSyncer::Finished> DiskSyncer::take_finished() {
    // The bell is not answered here: take_failure() did, just before, and a failure that rang
    // it since must not go unheard.
    std::lock_guard lock(mutex_);
    if (finished_.empty()) return std::nullopt;
    Finished first = std::move(finished_.front());
    finished_.erase(finished_.begin());
    return first;
}

} // namespace halma::daemon
