// Both ends of the key probe. A CURVE client must know the server's public key before it can
// connect, and a peer told only "host:port" does not: so the host also listens, in clear, on the
// listen port + 1, and answers a KeyProbe there with its public key and nothing else (no room, no
// token, nothing that helps an attacker). What the probe says is only a claim: the peer compares
// it with what it pinned (known_hosts.h) or was told (a friends code, an mDNS advert), and the
// CURVE handshake that follows proves it, since only the key's owner can complete it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <zmq.hpp>

namespace halma::daemon {

// The port a host answers key probes on, given its listen port.
inline std::uint16_t key_probe_port(std::uint16_t listen_port) {
    return static_cast<std::uint16_t>(listen_port + 1);
}

// "tcp://HOST:PORT+1" for a link's "tcp://HOST:PORT".
std::string key_probe_endpoint(const std::string& endpoint);

// The host's side: a ROUTER on the probe port that answers every probe with the key.
class KeyProbeListener {
public:
    KeyProbeListener(zmq::context_t& context, std::string public_key, int handshake_ms);
    // Binds "tcp://HOST:PORT"; throws zmq::error_t when the port is taken.
    void bind(const std::string& endpoint);
    void unbind();
    zmq::socket_t& socket() { return socket_; }
    void on_readable();

private:
    zmq::socket_t socket_;
    std::string public_key_;
    std::string bound_;
};

// The peer's side: the probe's message, and the key read from an answer (nullopt: the answer is
// not a HostKey, or not a CURVE key).
std::string key_probe_request();
std::optional<std::string> key_from_probe_answer(const void* data, std::size_t size);

} // namespace halma::daemon
