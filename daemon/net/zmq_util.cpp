#include "daemon/net/zmq_util.h"

#include <pthread.h>
#include <sched.h>
#include <thread>

namespace halma::daemon {

bool batch_io_thread(zmq::context_t& context) {
    bool allowed = false;
    // Exactly what ZeroMQ will do: keep the inherited priority and change the policy. Under a
    // real-time policy (chrt -r, CPUSchedulingPolicy=rr) that priority is above 0, which
    // SCHED_BATCH refuses; the I/O thread then keeps the inherited policy.
    std::thread probe([&] {
        int policy = 0;
        sched_param param {};
        allowed = pthread_getschedparam(pthread_self(), &policy, &param) == 0
            && pthread_setschedparam(pthread_self(), SCHED_BATCH, &param) == 0;
    });
    probe.join();
    if (allowed) context.set(zmq::ctxopt::thread_sched_policy, SCHED_BATCH);
    return allowed;
}

void tune_socket(zmq::socket_t& socket, std::size_t max_read, int heartbeat_ms, int timeout_ms) {
    socket.set(zmq::sockopt::linger, 0);
    socket.set(zmq::sockopt::maxmsgsize, static_cast<std::int64_t>(max_read));
    if (heartbeat_ms <= 0) return;
    socket.set(zmq::sockopt::heartbeat_ivl, heartbeat_ms);
    socket.set(zmq::sockopt::heartbeat_timeout, timeout_ms);
    socket.set(zmq::sockopt::heartbeat_ttl, timeout_ms);
}

bool send_message(zmq::socket_t& socket, const google::protobuf::MessageLite& message) {
    zmq::message_t frame(message.ByteSizeLong());
    message.SerializeToArray(frame.data(), static_cast<int>(frame.size()));
    try {
        return socket.send(frame, zmq::send_flags::dontwait).has_value();
    } catch (const zmq::error_t&) {
        return false;
    }
}

bool send_routed(zmq::socket_t& router, const std::string& routing_id,
    const google::protobuf::MessageLite& message, bool req_envelope) {
    return send_routed(router, routing_id, message.SerializeAsString(), req_envelope);
}

bool send_routed(zmq::socket_t& router, const std::string& routing_id, std::string_view payload,
    bool req_envelope) {
    constexpr auto more = zmq::send_flags::sndmore | zmq::send_flags::dontwait;
    try {
        // The routing id frame decides: if it is refused (that peer's queue is full), nothing
        // of the message has gone out, so nothing half-sent can follow it.
        if (!router.send(zmq::buffer(routing_id), more)) return false;
        if (req_envelope) router.send(zmq::message_t(), more);
        return router.send(zmq::buffer(payload), zmq::send_flags::dontwait).has_value();
    } catch (const zmq::error_t&) {
        // ROUTER_MANDATORY: that peer is gone.
        return false;
    }
}

} // namespace halma::daemon
