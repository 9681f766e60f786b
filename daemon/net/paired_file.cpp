#include "daemon/net/paired_file.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

namespace halma::daemon {

namespace {

constexpr std::string_view kHeadStart = "# copy ";

std::uint32_t crc_of(std::string_view bytes) {
    return static_cast<std::uint32_t>(::crc32(::crc32(0L, Z_NULL, 0),
        reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
}

std::string head_of(std::uint64_t generation, std::string_view text) {
    std::array<char, 9> crc {};
    std::snprintf(crc.data(), crc.size(), "%08x", crc_of(text));
    return std::string(kHeadStart) + std::to_string(generation) + ": " + std::to_string(text.size())
        + " bytes follow, crc32 " + crc.data() + "\n";
}

struct Copy {
    bool exists = false; // and is not empty
    bool whole = false;
    bool headed = false; // written by this halmad, not by one from before copies
    std::uint64_t generation = 0;
    std::filesystem::file_time_type written {};
    std::string text;
};

// Whether `b` holds a newer version than `a` (each whole, or not: a torn one never is).
bool newer(const Copy& b, const Copy& a) {
    if (!b.whole) return false;
    if (!a.whole) return true;
    // See the header (a downgrade). File times are coarse (a clock tick): written within one
    // tick, the headed copy is taken, as this halmad wrote it after reading the other.
    if (a.headed != b.headed) return b.written != a.written ? b.written > a.written : b.headed;
    return b.generation > a.generation;
}

std::uint64_t number_at(std::string_view& s) {
    std::uint64_t n = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec != std::errc()) return ~std::uint64_t { 0 };
    s.remove_prefix(static_cast<std::size_t>(end - s.data()));
    return n;
}

bool skip(std::string_view& s, std::string_view expected) {
    if (!s.starts_with(expected)) return false;
    s.remove_prefix(expected.size());
    return true;
}

// Reads one copy: a missing or empty one does not exist; one without the head line is a file
// from before copies, whole as it is.
engine::Result<Copy> read_copy(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return Copy {};
    auto bytes = read_whole_file(path);
    if (!bytes) return std::unexpected(bytes.error());
    Copy copy;
    copy.exists = !bytes->empty();
    copy.written = std::filesystem::last_write_time(path, ec);
    // A copy cut inside its head line is a torn copy, not a file from before copies.
    std::string_view start = std::string_view(*bytes).substr(0, kHeadStart.size());
    if (!kHeadStart.starts_with(start)) {
        copy.whole = copy.exists;
        copy.text = std::move(*bytes);
        return copy;
    }
    if (bytes->size() < kHeadStart.size()) return copy; // cut inside "# copy "
    std::string_view s(*bytes);
    s.remove_prefix(kHeadStart.size());
    std::uint64_t generation = number_at(s);
    if (!skip(s, ": ")) return copy;
    std::uint64_t length = number_at(s);
    if (!skip(s, " bytes follow, crc32 ") || s.size() < 9 || s[8] != '\n') return copy;
    std::uint32_t crc = 0;
    auto [end, bad] = std::from_chars(s.data(), s.data() + 8, crc, 16);
    if (bad != std::errc() || end != s.data() + 8) return copy;
    s.remove_prefix(9);
    // Bytes past the length are what an earlier, longer text left before the cut caught up.
    if (length > s.size() || crc_of(s.substr(0, length)) != crc) return copy;
    copy.whole = true;
    copy.headed = true;
    copy.generation = generation;
    copy.text = std::string(s.substr(0, length));
    return copy;
}

} // namespace

std::filesystem::path second_copy(const std::filesystem::path& path) {
    auto copy = path;
    copy += ".b";
    return copy;
}

engine::Result<std::optional<std::string>> read_paired_file(const std::filesystem::path& path) {
    auto first = read_copy(path);
    if (!first) return std::unexpected(first.error());
    auto second = read_copy(second_copy(path));
    if (!second) return std::unexpected(second.error());
    if (!first->exists && !second->exists) return std::nullopt;
    if (!first->whole && !second->whole)
        return engine::fail(path.string() + " is damaged (both of its copies)");
    return std::move(newer(*second, *first) ? second->text : first->text);
}

std::string first_copy(std::string_view text) {
    return head_of(1, text) + std::string(text);
}

engine::Result<PairedWrite> write_paired_file(const std::filesystem::path& path,
    std::string_view text, Flush flush, const std::optional<std::filesystem::path>& again) {
    auto first = read_copy(path);
    if (!first) return std::unexpected(first.error());
    auto second = read_copy(second_copy(path));
    if (!second) return std::unexpected(second.error());
    bool second_newer = newer(*second, *first);
    bool any_whole = first->whole || second->whole;
    // One past every generation seen, so the copy written is the newest whichever it is.
    std::uint64_t generation = std::max(first->generation, second->generation) + 1;
    PairedWrite out { any_whole && !second_newer ? second_copy(path) : path, false };
    if (again) out.copy = *again;
    std::string bytes = head_of(generation, text);
    bytes += text;

    int fd = ::open(out.copy.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) {
        fd = ::open(out.copy.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        out.created = fd >= 0;
    }
    if (fd < 0)
        return engine::fail("cannot open " + out.copy.string() + ": " + std::strerror(errno));
    bool ok = true;
    for (std::string_view rest(bytes); ok && !rest.empty();) {
        auto at = static_cast<off_t>(bytes.size() - rest.size());
        ssize_t n = ::pwrite(fd, rest.data(), rest.size(), at);
        if (n < 0 && errno == EINTR) continue;
        if (n == 0) errno = ENOSPC;
        ok = n > 0;
        if (ok) rest.remove_prefix(static_cast<std::size_t>(n));
    }
    ok = ok && ::ftruncate(fd, static_cast<off_t>(bytes.size())) == 0;
    if (ok && flush == Flush::kNow) ok = ::fdatasync(fd) == 0;
    int saved = errno;
    if (::close(fd) != 0 && ok) ok = false, saved = errno;
    if (!ok) return engine::fail("cannot write " + out.copy.string() + ": " + std::strerror(saved));
    if (out.created && flush == Flush::kNow)
        if (auto synced = sync_directory(path.parent_path()); !synced)
            return std::unexpected(synced.error());
    return out;
}

engine::Result<bool> make_empty_copy(const std::filesystem::path& copy) {
    int fd = ::open(copy.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return engine::fail("cannot create " + copy.string() + ": " + std::strerror(errno));
    ::close(fd);
    return true;
}

} // namespace halma::daemon
