#include "daemon/discovery/lan_table.h"
#include "daemon/discovery/service_txt.h"

#include <gtest/gtest.h>

namespace halma::daemon {
namespace {

std::vector<std::string> advert(const std::string& name, const std::string& daemon) {
    RoomConfig c;
    c.room_id = std::string(32, 'a');
    c.name = name;
    return public_room_txt(c, 2, 1, Phase::kWaiting, "ann", daemon);
}

ResolvedService seen(const std::string& service, LanAddress address, std::uint64_t order,
    std::vector<std::string> txt) {
    return { service, "local", "ann-laptop.local", std::move(address), 7460, std::move(txt), order,
        order };
}

TEST(LanTable, OneRoomPerServiceWithItsAddressesBestFirst) {
    auto txt = advert("Family", "0123456789abcdef");
    auto rooms = merge_services({
        seen("Family", { "fe80::1%3", 3, true }, 1, txt),
        seen("Family", { "fd00::7", 3, true }, 2, txt),
        seen("Family", { "10.0.0.7", 3, false }, 3, txt),
        seen("Family", { "10.0.0.7", 3, false }, 4, txt), // the same address twice
    });
    ASSERT_EQ(rooms.size(), 1u);
    const auto& r = rooms.front();
    EXPECT_EQ(r.advert.name, "Family");
    EXPECT_EQ(r.machine, "ann-laptop.local");
    ASSERT_EQ(r.addresses.size(), 3u);
    EXPECT_EQ(r.addresses[0].endpoint(7460), "10.0.0.7:7460");
    EXPECT_EQ(r.addresses[1].endpoint(7460), "[fd00::7]:7460");
    EXPECT_EQ(r.addresses[2].endpoint(7460), "[fe80::1%3]:7460");
    EXPECT_TRUE(r.addresses[2].link_local());
}

TEST(LanTable, TheNewestTxtWins) {
    auto old_txt = advert("Family", "0123456789abcdef");
    RoomConfig c;
    c.room_id = std::string(32, 'a');
    c.name = "Family";
    auto new_txt = public_room_txt(c, 2, 2, Phase::kPlaying, "ann", "0123456789abcdef");
    auto rooms = merge_services({ seen("Family", { "10.0.0.7", 2, false }, 9, new_txt),
        seen("Family", { "fe80::1%2", 2, true }, 3, old_txt) });
    ASSERT_EQ(rooms.size(), 1u);
    EXPECT_EQ(rooms[0].advert.phase, Phase::kPlaying);
}

TEST(LanTable, LeavesOutWhatIsNotAHalmaRoom) {
    auto rooms = merge_services({ seen("printer", { "10.0.0.9", 2, false }, 1, { "txtvers=1" }),
        seen("Family", { "10.0.0.7", 2, false }, 2, advert("Family", "0123456789abcdef")) });
    ASSERT_EQ(rooms.size(), 1u);
    EXPECT_EQ(rooms[0].service, "Family");
}

TEST(LanTable, BoundedWhateverTheLanAdvertises) {
    std::vector<ResolvedService> flood;
    for (int i = 0; i < 600; ++i) {
        auto name = "room" + std::to_string(i);
        flood.push_back(seen(name, { "10.0.0." + std::to_string(i % 30), 2, false },
            static_cast<std::uint64_t>(i), advert(name, "0123456789abcdef")));
    }
    for (int i = 0; i < 20; ++i)
        flood.push_back(seen("room0", { "10.0.1." + std::to_string(i), 2, false }, 1000,
            advert("room0", "0123456789abcdef")));
    auto rooms = merge_services(flood);
    EXPECT_EQ(rooms.size(), kMaxLanRooms);
    for (const auto& r : rooms) EXPECT_LE(r.addresses.size(), kMaxRoomAddresses);
}

// An advert is anyone's: one resolved to 127.0.0.1 made a daemon that joined it connect to
// itself; port 0, the unspecified and multicast addresses reach nobody.
TEST(LanTable, AddressesNoOtherMachineHasAreLeftOut) {
    auto txt = advert("sunday", "0123456789abcdef");
    auto only = [&](LanAddress a, std::uint16_t port = 7460) {
        auto s = seen("sunday", std::move(a), 1, txt);
        s.port = port;
        return merge_services({ s });
    };
    for (const char* ip : { "127.0.0.1", "127.9.9.9", "0.0.0.0", "224.0.0.251", "255.255.255.255" })
        EXPECT_TRUE(only({ ip, 2, false }).empty()) << ip;
    for (const char* ip : { "::1", "::", "ff02::fb", "::ffff:127.0.0.1" })
        EXPECT_TRUE(only({ ip, 2, true }).empty()) << ip;
    EXPECT_TRUE(only({ "10.0.0.7", 2, false }, 0).empty()) << "port 0";
    EXPECT_EQ(only({ "10.0.0.7", 2, false }).size(), 1u);
    EXPECT_EQ(only({ "169.254.3.4", 2, false }).size(), 1u);
    EXPECT_EQ(only({ "fe80::1%2", 2, true }).size(), 1u);
    // A room seen at a loopback address and a real one keeps the real one only.
    auto both = merge_services({ seen("sunday", { "127.0.0.1", 1, false }, 1, txt),
        seen("sunday", { "10.0.0.7", 2, false }, 2, txt) });
    ASSERT_EQ(both.size(), 1u);
    ASSERT_EQ(both[0].addresses.size(), 1u);
    EXPECT_EQ(both[0].addresses[0].ip, "10.0.0.7");
}

// 300 adverts from one machine, named to sort first, pushed the real rooms off the list (it kept
// the first 256 by name). Past the bound, the rooms seen first stay, and one machine has at most
// kMaxLanRoomsPerMachine of them.
TEST(LanTable, AFloodFromOneMachineCannotPushTheOthersRoomsOff) {
    std::vector<ResolvedService> lan;
    for (int i = 0; i < 40; ++i) {
        auto name = "zz real " + std::to_string(i);
        lan.push_back(seen(name, { "10.0.0." + std::to_string(10 + i), 2, false },
            static_cast<std::uint64_t>(1 + i), advert(name, "0123456789abcdef")));
    }
    for (int i = 0; i < 300; ++i) {
        auto name = "000 flood " + std::to_string(i);
        lan.push_back(seen(name, { "10.0.0.66", 2, false }, static_cast<std::uint64_t>(100 + i),
            advert(name, "fedcba9876543210")));
    }
    // The flood's machine also sent its adverts before one real room came (first seen later).
    lan.push_back(
        seen("zz late", { "10.0.0.99", 2, false }, 1000, advert("zz late", "0a0a0a0a0a0a0a0a")));
    std::size_t left_out = 0;
    auto rooms = merge_services(lan, &left_out);
    std::size_t real = 0, flood = 0;
    for (const auto& r : rooms) (r.advert.name.starts_with("zz") ? real : flood)++;
    EXPECT_EQ(real, 41u) << "every other machine's room is listed";
    EXPECT_EQ(flood, kMaxLanRoomsPerMachine);
    EXPECT_EQ(left_out, 300u - kMaxLanRoomsPerMachine);
    EXPECT_TRUE(std::is_sorted(rooms.begin(), rooms.end(),
        [](const LanRoom& a, const LanRoom& b) { return a.advert.name < b.advert.name; }));
    std::size_t none = 1;
    merge_services({ lan[0], lan[1] }, &none);
    EXPECT_EQ(none, 0u);
}

} // namespace
} // namespace halma::daemon
