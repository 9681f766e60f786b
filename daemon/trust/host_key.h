// This daemon's long-term CURVE key pair (ZeroMQ's CurveZMQ: Curve25519 keys, Z85 text): every
// link between daemons is encrypted with it, and it is how peers recognise a host again. Made at
// the first start and kept in STATE_DIR/curve (0600), so a restarted daemon is the same host and
// the same peer. The fingerprint is what people compare: docs/protocol.md "Encrypted links".
#pragma once

#include "engine/result.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace halma::daemon {

struct CurveKeyPair {
    std::string public_key; // 40 Z85 characters
    std::string secret_key; // 40 Z85 characters; never leaves this daemon
};

// Reads STATE_DIR/curve, or makes a new pair and writes it there (0600) when there is none. A file
// that is there but unreadable or damaged is an error, never silently replaced: peers pinned its
// public key, and a new key would look to them like an impersonator.
engine::Result<CurveKeyPair> load_or_create_host_key(const std::filesystem::path& state_dir);

// A new key pair that is kept nowhere (the benchmark's and tests' throw-away identities).
CurveKeyPair new_curve_key_pair();

// Whether `key` is a Z85 CURVE public key (40 characters that decode to 32 bytes).
bool is_curve_key(std::string_view key);

// "SHA256:" and the first 128 bits of the SHA-256 of the 32-byte key, in lower-case Crockford
// base32 grouped by four: "SHA256:k7f3-9xq2-...". Empty for a string that is not a key.
std::string key_fingerprint(std::string_view public_key);
// The same 128 bits as 26 base32 characters, ungrouped, no prefix (a friends code carries the
// first 16 of them: 80 bits).
std::string fingerprint_digits(std::string_view public_key);

} // namespace halma::daemon
