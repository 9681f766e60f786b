// Files that are whole after a crash or a power cut: replaced atomically (a temporary file,
// rename, and its fsync and the directory's, before the rename or after it on the disk helper:
// Flush), or only appended to, each append in the kernel when it returns and flushed to the disk
// by the disk helper, which opens the file by its path (disk_syncer.h).
// What a host keeps of its rooms is written this way (room_store.h).
#pragma once

#include "engine/result.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace halma::daemon {

// Whether a write waits for the disk (kNow), or only for the kernel (kLater: the caller has the
// file and its directory flushed afterwards, off the event loop; see disk_syncer.h).
enum class Flush { kNow, kLater };

// After this returns, and after any crash, `path` holds all of `bytes`, mode 0600 (it held what
// it held before until the rename). With Flush::kLater, after a crash of this process; a power
// cut before the file and its directory are flushed may leave the old file, or an empty one.
// The temporary file is `path` with `temp_suffix` added: two threads that write the same file
// at once (with the same bytes) each need their own.
engine::Result<bool> write_file_atomically(const std::filesystem::path& path,
    std::string_view bytes, Flush flush = Flush::kNow, std::string_view temp_suffix = ".tmp");
// Writes `bytes` to `path` in place (made or cut to nothing first), then fdatasync: for a file
// nobody reads before this returns (a folded log the loop renames into place afterwards), so
// neither a temporary file nor a flush of the directory is needed.
engine::Result<bool> write_file_flushed(const std::filesystem::path& path, std::string_view bytes);
// Writes the file again as a new file, with its flushes (write_file_atomically, kNow): what it
// holds is then on the disk even where a flush of the old file would pass over a write-back
// error the kernel reported to another process before.
engine::Result<bool> rewrite_file_afresh(const std::filesystem::path& path);
// Makes the directory's entries durable: files created, renamed or removed in it.
engine::Result<bool> sync_directory(const std::filesystem::path& dir);
engine::Result<std::string> read_whole_file(const std::filesystem::path& path);
// Puts everything written on the file system that holds `path` on the disk (syncfs): what a
// previous process left in the kernel included.
engine::Result<bool> sync_file_system(const std::filesystem::path& path);
// Puts what was written to the file on the disk (fdatasync), opening it for that alone.
engine::Result<bool> flush_file(const std::filesystem::path& path);
// Cuts the file to `size` bytes, durably (a torn record at its end is dropped this way).
engine::Result<bool> truncate_file(const std::filesystem::path& path, std::uintmax_t size);

// A file only ever added to at its end. An append is in the kernel when append() returns (a
// crash of this process cannot lose it); the disk has it after an fdatasync of the file.
class AppendFile {
public:
    // Opens `path` for appending; with `create`, makes it (mode 0600) if it is not there.
    static engine::Result<AppendFile> open(const std::filesystem::path& path, bool create);
    AppendFile(AppendFile&& other) noexcept;
    AppendFile& operator=(AppendFile&& other) noexcept;
    AppendFile(const AppendFile&) = delete;
    AppendFile& operator=(const AppendFile&) = delete;
    ~AppendFile();

    // Writes all of `bytes` at the end.
    engine::Result<bool> append(std::string_view bytes);

private:
    AppendFile(int fd, std::filesystem::path path)
        : fd_(fd)
        , path_(std::move(path)) { }
    int fd_ = -1;
    std::filesystem::path path_;
};

} // namespace halma::daemon
