// A small file the event loop replaces whole while rooms play (a room's seat tokens, at every
// join and leave; its seat keys), kept as two copies written in turn, in place: PATH and PATH.b.
// Replacing it atomically meant a new file and a rename each time, and both need the file
// system's journal, which on a Raspberry Pi's SD card can wait for a commit in progress while
// the loop holds up every room. Writing over a file that exists needs no new directory entry.
// Each copy begins with a line giving its generation, how many bytes follow and their CRC-32;
// the newest copy that is whole is the file. A power cut in the middle of a write can tear only
// the copy being written, never the other, which holds the version before, as long as the other
// is on the disk: a writer that flushes later writes over the same copy again until its flush is
// done (write_paired_file's `again`). A file written by a halmad from before copies (no such
// line) is taken as it is: it is the file if the other copy is missing, torn or older than it
// (a downgrade, then an upgrade, leaves a headed copy older than the file the old halmad wrote).
#pragma once

#include "daemon/net/durable_file.h"
#include "engine/result.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace halma::daemon {

// The second copy of the file at `path`.
std::filesystem::path second_copy(const std::filesystem::path& path);

// The text of the newest whole copy; nullopt if neither copy exists (or both are empty), an
// error if neither is whole or one cannot be read.
engine::Result<std::optional<std::string>> read_paired_file(const std::filesystem::path& path);

struct PairedWrite {
    std::filesystem::path copy; // the copy written: the one to flush
    bool created = false; // it was made by this write: its directory needs a flush too
};
// Writes `text` over the copy that is not the newest whole one (mode 0600), one generation on;
// or over `again`, a copy this writer wrote before and whose flush is not done yet (the other
// copy may then be the only one on the disk). With Flush::kNow it is on the disk when this
// returns; with kLater the caller has `copy` (and, if created, its directory) flushed afterwards.
engine::Result<PairedWrite> write_paired_file(const std::filesystem::path& path,
    std::string_view text, Flush flush,
    const std::optional<std::filesystem::path>& again = std::nullopt);

// The bytes of a first copy holding `text` (generation 1), for a writer that makes the file
// itself (a new room's members, written atomically by the disk helper).
std::string first_copy(std::string_view text);

// An empty copy (reads as absent), made where it is missing, so a later write creates nothing.
engine::Result<bool> make_empty_copy(const std::filesystem::path& copy);

} // namespace halma::daemon
