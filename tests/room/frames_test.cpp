// Reading one message off a socket (frames.h): the size limit, the version, a body, and
// garbage of every kind giving a rejection, never a crash.
#include "daemon/wire/frames.h"

#include <gtest/gtest.h>
#include <random>

namespace wire = halma::daemon::wire;
namespace pb = halma::v1;

namespace {

constexpr std::size_t kLimit = 65536;

std::string bytes_of(const google::protobuf::Message& m) {
    std::string s;
    EXPECT_TRUE(m.SerializeToString(&s));
    return s;
}

pb::PeerMessage join_message(std::uint32_t version) {
    pb::PeerMessage m;
    m.set_version(version);
    m.set_request_id(7);
    m.mutable_join()->set_room("sunday");
    m.mutable_join()->set_name("bob");
    return m;
}

std::optional<wire::Rejection> read_peer(const std::string& bytes, std::size_t limit = kLimit) {
    pb::PeerMessage out;
    return wire::read_envelope(bytes.data(), bytes.size(), limit, out);
}

} // namespace

TEST(Frames, AGoodMessageIsRead) {
    pb::PeerMessage out;
    std::string bytes = bytes_of(join_message(1));
    ASSERT_FALSE(wire::read_envelope(bytes.data(), bytes.size(), kLimit, out));
    EXPECT_EQ(out.request_id(), 7u);
    EXPECT_EQ(out.join().name(), "bob");

    pb::Request request;
    request.set_version(1);
    request.mutable_status();
    std::string r = bytes_of(request);
    pb::Request read;
    EXPECT_FALSE(wire::read_envelope(r.data(), r.size(), kLimit, read));
    EXPECT_TRUE(read.has_status());
}

TEST(Frames, OverTheLimitIsTooLarge) {
    std::string bytes = bytes_of(join_message(1));
    auto rejection = read_peer(bytes, bytes.size() - 1);
    ASSERT_TRUE(rejection);
    EXPECT_EQ(rejection->code, pb::ERROR_CODE_TOO_LARGE);
    EXPECT_EQ(rejection->message,
        "message of " + std::to_string(bytes.size()) + " bytes is over the limit of "
            + std::to_string(bytes.size() - 1));
    EXPECT_FALSE(read_peer(bytes, bytes.size())) << "exactly the limit is fine";
}

// The refusal reaches the request that was too large: its id is read without parsing the rest.
TEST(Frames, ARequestTooLargeKeepsItsId) {
    // The long field first, the id after it (protobuf would write the id first, and nothing
    // would be skipped): two messages end to end read as one.
    pb::Request body, head;
    body.mutable_host()->set_name(std::string(5000, 'x'));
    head.set_version(1);
    head.set_request_id(41);
    std::string bytes = bytes_of(body) + bytes_of(head);
    ASSERT_NE(bytes.find('x'), std::string::npos);
    ASSERT_LT(bytes.find('x'), bytes.size() - 4) << "the id is after the long field";
    pb::Request read;
    auto rejection = wire::read_envelope(bytes.data(), bytes.size(), 1000, read);
    ASSERT_TRUE(rejection);
    EXPECT_EQ(rejection->code, pb::ERROR_CODE_TOO_LARGE);
    EXPECT_EQ(read.request_id(), 41u);
}

TEST(Frames, AnotherVersionIsRefusedWithTheVersionCode) {
    auto rejection = read_peer(bytes_of(join_message(2)));
    ASSERT_TRUE(rejection);
    EXPECT_EQ(rejection->code, pb::ERROR_CODE_VERSION);
    EXPECT_EQ(rejection->message, "protocol version 2 is not spoken here (this daemon speaks 1)");
}

TEST(Frames, NoVersionReadsAsVersion0) {
    auto rejection = read_peer(bytes_of(join_message(0)));
    ASSERT_TRUE(rejection);
    EXPECT_EQ(rejection->code, pb::ERROR_CODE_VERSION);
    EXPECT_EQ(rejection->message, "protocol version 0 is not spoken here (this daemon speaks 1)");
}

// Nothing at all is no message of any version: it was answered as "protocol version 0".
TEST(Frames, AnEmptyMessageIsMalformed) {
    auto rejection = read_peer("");
    ASSERT_TRUE(rejection) << "an empty message";
    EXPECT_EQ(rejection->code, pb::ERROR_CODE_MALFORMED);
    EXPECT_EQ(rejection->message, "an empty message");
}

TEST(Frames, NoBodyIsMalformed) {
    pb::PeerMessage m;
    m.set_version(1);
    m.set_request_id(3);
    auto rejection = read_peer(bytes_of(m));
    ASSERT_TRUE(rejection);
    EXPECT_EQ(rejection->code, pb::ERROR_CODE_MALFORMED);
    EXPECT_EQ(rejection->message, "a message with no body");
}

TEST(Frames, GarbageIsMalformed) {
    for (std::string garbage :
        { std::string("\xff\xff\xff\xff", 4), std::string("hello world"), std::string("\x08", 1),
            std::string("\x0a\x05"
                        "ab",
                4),
            std::string("\x0a\x01"
                        "A",
                3) }) { // field 1 (the version) with the wrong wire type: parses as nothing
        auto rejection = read_peer(garbage);
        ASSERT_TRUE(rejection);
        EXPECT_EQ(rejection->code, pb::ERROR_CODE_MALFORMED);
        EXPECT_EQ(rejection->message,
            "not a halma.v1 message (" + std::to_string(garbage.size()) + " bytes)");
    }
}

// A later version may change a field's type so that this version cannot parse the message;
// field 1 still says which version it is.
TEST(Frames, AnUnparsableMessageOfAnotherVersionIsRefusedWithTheVersionCode) {
    // version 2, then field 10 (list_rooms) holding bytes that are no ListRooms (tag 0).
    std::string later = std::string("\x08\x02\x52\x02\x00\x00", 6);
    auto rejection = read_peer(later);
    ASSERT_TRUE(rejection);
    EXPECT_EQ(rejection->code, pb::ERROR_CODE_VERSION);
    EXPECT_EQ(rejection->message, "protocol version 2 is not spoken here (this daemon speaks 1)");
    // The same in version 1 is simply malformed.
    later[1] = '\x01';
    rejection = read_peer(later);
    ASSERT_TRUE(rejection);
    EXPECT_EQ(rejection->code, pb::ERROR_CODE_MALFORMED);
}

TEST(Frames, InvalidUtf8InAStringIsMalformed) {
    auto m = join_message(1);
    std::string bytes = bytes_of(m);
    auto at = bytes.find("bob");
    ASSERT_NE(at, std::string::npos);
    bytes[at + 1] = '\xc3'; // "b\xc3b": a lead byte with no continuation
    auto rejection = read_peer(bytes);
    ASSERT_TRUE(rejection);
    EXPECT_EQ(rejection->code, pb::ERROR_CODE_MALFORMED);
}

TEST(Frames, HostMessagesAreCheckedForVersionOnly) {
    pb::HostMessage m;
    m.set_version(1);
    std::string bytes = bytes_of(m);
    pb::HostMessage out;
    EXPECT_FALSE(wire::read_host_message(bytes.data(), bytes.size(), out)) << "no body is fine";
    m.set_version(3);
    bytes = bytes_of(m);
    auto rejection = wire::read_host_message(bytes.data(), bytes.size(), out);
    ASSERT_TRUE(rejection);
    EXPECT_EQ(rejection->code, pb::ERROR_CODE_VERSION);
    std::string garbage("\xff\xff", 2);
    rejection = wire::read_host_message(garbage.data(), garbage.size(), out);
    ASSERT_TRUE(rejection);
    EXPECT_EQ(rejection->code, pb::ERROR_CODE_MALFORMED);
}

TEST(Frames, RandomBytesNeverCrash) {
    std::mt19937_64 rng(7);
    std::string good = bytes_of(join_message(1));
    int accepted = 0;
    for (int i = 0; i < 20'000; ++i) {
        std::string bytes;
        if (i % 2) {
            bytes.resize(rng() % 64);
            for (auto& c : bytes) c = static_cast<char>(rng());
        } else {
            bytes = good;
            for (int k = 0, n = 1 + static_cast<int>(rng() % 4); k < n; ++k)
                bytes[rng() % bytes.size()] = static_cast<char>(rng());
        }
        pb::PeerMessage peer;
        auto rejection = wire::read_envelope(bytes.data(), bytes.size(), 48, peer);
        if (!rejection) {
            ++accepted;
            EXPECT_EQ(peer.version(), 1u);
            EXPECT_NE(peer.body_case(), pb::PeerMessage::BODY_NOT_SET);
            EXPECT_LE(bytes.size(), 48u);
        } else {
            EXPECT_NE(rejection->code, pb::ERROR_CODE_UNSPECIFIED);
            EXPECT_FALSE(rejection->message.empty());
        }
        pb::Request request;
        (void)wire::read_envelope(bytes.data(), bytes.size(), kLimit, request);
        pb::HostMessage host;
        (void)wire::read_host_message(bytes.data(), bytes.size(), host);
    }
    EXPECT_GT(accepted, 0) << "the mutations never left a good message: the loop tests little";
}

// What a hostile host sends a guest is looked over as its schema says before it is parsed, at
// every depth: a group (a kind of field no halma message has: 1b 1c, an empty one) hid what came
// after it from the checks, and one message grew a guest by gigabytes (a review).
namespace {

std::string varint(std::uint64_t v) {
    std::string out;
    do {
        std::uint8_t b = v & 0x7f;
        v >>= 7;
        out += static_cast<char>(v ? b | 0x80 : b);
    } while (v);
    return out;
}

std::string field(int number, const std::string& body) {
    return varint(static_cast<std::uint64_t>(number) << 3 | 2) + varint(body.size()) + body;
}

std::optional<wire::Rejection> read_host(const std::string& bytes) {
    pb::HostMessage out;
    return wire::read_host_message(bytes.data(), bytes.size(), out);
}

} // namespace

TEST(HostMessages, AGroupIsRefusedWhereverItIs) {
    pb::HostMessage beat;
    beat.set_version(1);
    beat.mutable_heartbeat();
    std::string fine = bytes_of(beat);
    EXPECT_FALSE(read_host(fine));
    std::string group = "\x1b\x1c"; // field 3, an empty group
    auto rejection = read_host(std::string("\x08\x01") + group + fine);
    ASSERT_TRUE(rejection);
    EXPECT_EQ(rejection->code, pb::ERROR_CODE_MALFORMED);
    EXPECT_NE(rejection->message.find("wire type 3"), std::string::npos) << rejection->message;
    // Inside a room update's event.
    std::string update = field(pb::RoomUpdate::kEventFieldNumber, group);
    rejection
        = read_host(std::string("\x08\x01") + field(pb::HostMessage::kUpdateFieldNumber, update));
    ASSERT_TRUE(rejection);
    EXPECT_EQ(rejection->code, pb::ERROR_CODE_MALFORMED);
}

TEST(HostMessages, ABodyGivenTwiceOrTooBigIsRefused) {
    std::string beat = field(pb::HostMessage::kHeartbeatFieldNumber, std::string());
    auto rejection = read_host("\x08\x01" + beat + beat);
    ASSERT_TRUE(rejection);
    EXPECT_NE(rejection->message.find("more than once"), std::string::npos) << rejection->message;
    std::string big_rooms(wire::kMaxHostHeartbeat + 1, '\0');
    rejection = read_host("\x08\x01" + field(pb::HostMessage::kHeartbeatFieldNumber, big_rooms));
    ASSERT_TRUE(rejection);
    EXPECT_EQ(rejection->code, pb::ERROR_CODE_TOO_LARGE);
}

TEST(HostMessages, UnknownFieldsAreFewAtMost) {
    pb::HostMessage ack;
    ack.set_version(1);
    ack.mutable_ack();
    std::string some;
    for (int i = 0; i < 8; ++i) some += "\x18" + varint(static_cast<std::uint64_t>(i)); // field 3
    EXPECT_FALSE(read_host(bytes_of(ack) + some)) << "a newer host's few fields are fine";
    std::string many;
    for (int i = 0; i < 100'000; ++i) many += std::string("\x18\x00", 2);
    auto rejection = read_host(bytes_of(ack) + many);
    ASSERT_TRUE(rejection);
    EXPECT_NE(rejection->message.find("does not have"), std::string::npos) << rejection->message;
}

TEST(HostMessages, ASnapshotsEventsAreCountedAtEveryDepth) {
    std::string events;
    std::string empty_event = field(pb::Snapshot::kEventsFieldNumber, std::string());
    for (std::size_t i = 0; i <= wire::kMaxHostSnapshotEvents; ++i) events += empty_event;
    std::string joined = field(pb::Joined::kSnapshotFieldNumber, events);
    auto rejection
        = read_host("\x08\x01\x1b\x1c" + field(pb::HostMessage::kJoinedFieldNumber, joined));
    ASSERT_TRUE(rejection) << "a group in front let it through";
    rejection = read_host("\x08\x01" + field(pb::HostMessage::kJoinedFieldNumber, joined));
    ASSERT_TRUE(rejection);
    EXPECT_EQ(rejection->code, pb::ERROR_CODE_TOO_LARGE);
    EXPECT_NE(rejection->message.find("events"), std::string::npos) << rejection->message;
}

// A join's answer carries a held seat per member gone: 1.3 million empty ones (2.6 MB) were
// parsed and kept, 87 MB of a guest for good (a red-team QA pass).
TEST(HostMessages, AJoinsHeldSeatsAreFewAtMost) {
    std::string held;
    for (int i = 0; i < 128; ++i) held += field(pb::Joined::kHeldFieldNumber, std::string());
    EXPECT_FALSE(read_host("\x08\x01" + field(pb::HostMessage::kJoinedFieldNumber, held)))
        << "a full room's held seats are fine";
    held += field(pb::Joined::kHeldFieldNumber, std::string());
    auto rejection = read_host("\x08\x01" + field(pb::HostMessage::kJoinedFieldNumber, held));
    ASSERT_TRUE(rejection);
    EXPECT_EQ(rejection->code, pb::ERROR_CODE_TOO_LARGE);
    EXPECT_NE(rejection->message.find("held seats"), std::string::npos) << rejection->message;
}
