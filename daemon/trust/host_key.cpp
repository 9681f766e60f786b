#include "daemon/trust/host_key.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sodium.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

namespace halma::daemon {

namespace {

constexpr std::string_view kCrockford = "0123456789abcdefghjkmnpqrstvwxyz";

std::string errno_text() {
    return std::strerror(errno);
}

// Writes a new file only: O_EXCL, so that two starts racing cannot each write a key (the state
// lock makes that impossible anyway) and an existing key is never overwritten.
engine::Result<bool> write_new_private_file(
    const std::filesystem::path& path, const std::string& bytes) {
    auto tmp = path;
    tmp += ".new";
    ::unlink(tmp.c_str());
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return engine::fail("cannot create " + tmp.string() + ": " + errno_text());
    bool ok = ::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size())
        && ::fsync(fd) == 0;
    std::string why = ok ? "" : errno_text();
    ::close(fd);
    if (!ok || ::link(tmp.c_str(), path.c_str()) != 0) {
        if (why.empty()) why = errno_text();
        ::unlink(tmp.c_str());
        return engine::fail("cannot write " + path.string() + ": " + why);
    }
    ::unlink(tmp.c_str());
    if (int dir = ::open(path.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
    return true;
}

} // namespace

CurveKeyPair new_curve_key_pair() {
    char public_key[41] = {};
    char secret_key[41] = {};
    if (zmq_curve_keypair(public_key, secret_key) != 0)
        throw std::runtime_error("this libzmq has no CURVE (built without libsodium)");
    return { public_key, secret_key };
}

bool is_curve_key(std::string_view key) {
    if (key.size() != 40) return false;
    std::array<std::uint8_t, 32> raw {};
    std::string text(key);
    return zmq_z85_decode(raw.data(), text.c_str()) != nullptr;
}

std::string fingerprint_digits(std::string_view public_key) {
    if (!is_curve_key(public_key)) return "";
    std::array<std::uint8_t, 32> raw {};
    std::string text(public_key);
    zmq_z85_decode(raw.data(), text.c_str());
    std::array<unsigned char, crypto_hash_sha256_BYTES> digest {};
    crypto_hash_sha256(digest.data(), raw.data(), raw.size());
    // 128 bits, five at a time, most significant first: 26 digits (the last holds 3 bits).
    std::string out;
    unsigned buffer = 0;
    int bits = 0;
    for (int i = 0; i < 16; ++i) {
        buffer = (buffer << 8) | digest[static_cast<std::size_t>(i)];
        bits += 8;
        while (bits >= 5) {
            out += kCrockford[(buffer >> (bits - 5)) & 31];
            bits -= 5;
        }
    }
    if (bits > 0) out += kCrockford[(buffer << (5 - bits)) & 31];
    return out;
}

std::string key_fingerprint(std::string_view public_key) {
    std::string digits = fingerprint_digits(public_key);
    if (digits.empty()) return "";
    std::string out = "SHA256:";
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && i % 4 == 0) out += '-';
        out += digits[i];
    }
    return out;
}

engine::Result<CurveKeyPair> load_or_create_host_key(const std::filesystem::path& state_dir) {
    auto path = state_dir / "curve";
    std::ifstream in(path);
    if (in) {
        // Two lines: "public KEY" and "secret KEY".
        CurveKeyPair pair;
        std::string word, key;
        while (in >> word >> key) {
            if (word == "public") pair.public_key = key;
            if (word == "secret") pair.secret_key = key;
        }
        if (!is_curve_key(pair.public_key) || !is_curve_key(pair.secret_key))
            return engine::fail(path.string()
                + " is damaged (no 'public' and 'secret' CURVE keys in it); it was left as it is: "
                  "restore it from a backup, or remove it to make a new key (peers that pinned "
                  "the old one will refuse this daemon until they forget it)");
        struct stat st { };
        if (::stat(path.c_str(), &st) == 0 && (st.st_mode & 077) != 0)
            ::chmod(path.c_str(), 0600); // the secret key is this daemon's alone
        return pair;
    }
    if (errno != ENOENT) return engine::fail("cannot read " + path.string() + ": " + errno_text());
    CurveKeyPair pair = new_curve_key_pair();
    std::ostringstream text;
    text << "public " << pair.public_key << "\nsecret " << pair.secret_key << "\n";
    if (auto written = write_new_private_file(path, text.str()); !written)
        return std::unexpected(written.error());
    return pair;
}

} // namespace halma::daemon
