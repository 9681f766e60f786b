// What halma play says of the player's other rooms when the room it showed ends (closed, left,
// the seat given up): play ended as if the player were in no room at all.
#include "cli/client/other_rooms.h"

#include <gtest/gtest.h>

using namespace halma::cli;

TEST(StillInWords, TheOtherRoomsAndHowToGoThere) {
    EXPECT_EQ(still_in_words({}), "");
    EXPECT_EQ(still_in_words({ "lunch" }), "you are still in room lunch: halma play -r lunch");
    EXPECT_EQ(
        still_in_words({ "Office 5" }), "you are still in room Office 5: halma play -r 'Office 5'");
    EXPECT_EQ(still_in_words({ "lunch", "porch" }),
        "you are still in rooms lunch, porch: halma play -r ROOM");
}
