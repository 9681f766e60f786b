// A room's name, checked alike for halma host, the web page and a config's standing rooms.
#include "daemon/room/room_name.h"

#include <gtest/gtest.h>

using halma::daemon::room_name;

TEST(RoomName, SpacesAtEitherEndAreDroppedAndControlsBecomeSpaces) {
    EXPECT_EQ(room_name("  sunday  ").value(), "sunday");
    EXPECT_EQ(room_name("a\nb").value(), "a b");
    EXPECT_EQ(room_name("two  spaces").value(), "two  spaces") << "inside, kept as typed";
    EXPECT_EQ(room_name("Zoë's 🎲").value(), "Zoë's 🎲");
}

TEST(RoomName, BlankEmptyAndLongNamesSayWhy) {
    EXPECT_EQ(room_name("").error().message, "a room needs a name");
    EXPECT_EQ(room_name(" \t\n").error().message, "a room name cannot be blank");
    EXPECT_EQ(room_name(std::string(41, 'a')).error().message,
        "a room name is at most 40 bytes; '" + std::string(41, 'a') + "' has 41");
    EXPECT_TRUE(room_name("  " + std::string(40, 'a') + "  ")) << "40 once the spaces are gone";
}
