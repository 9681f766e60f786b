// An open take-back vote in words, as halma status and halma play say it: whose move it takes
// back, what goes with it, who agreed and who has yet to, and what to type.
#include "cli/client/output.h"

#include <gtest/gtest.h>

using namespace halma::cli;
namespace pb = ::halma::v1;

namespace {

pb::RoomView three_players_ann_asks(int count) {
    pb::RoomView v;
    v.mutable_summary()->set_name("sunday");
    v.mutable_summary()->set_phase(pb::PHASE_PLAYING);
    v.set_your_seat(2);
    for (const char* name : { "ann", "bob", "cat" }) {
        auto* seat = v.add_seats();
        seat->set_seat(v.seats_size() - 1);
        seat->set_name(name);
        seat->set_connected(true);
    }
    v.mutable_seats(0)->set_voted_take_back(true);
    v.set_take_back_seat(0);
    v.set_take_back_move("o1-m7");
    v.set_take_back_count(static_cast<unsigned>(count));
    return v;
}

} // namespace

TEST(TakeBackWords, AnOpenTakeBackSaysWhoseMoveAndWhatGoesWithIt) {
    EXPECT_EQ(open_vote_lines(three_players_ann_asks(3), "/vote"),
        std::vector<std::string> { "* take back ann's o1-m7 and the 2 moves after it: voted ann; "
                                   "not yet you, bob; to agree: /vote takeback" });
    auto one = three_players_ann_asks(1);
    one.set_your_seat(0);
    EXPECT_EQ(open_vote_lines(one, "halma vote"),
        std::vector<std::string> { "* take back your o1-m7: voted you; not yet bob, cat" });
    auto two = three_players_ann_asks(2);
    two.mutable_seats(1)->set_voted_take_back(true);
    std::string status = format_room_status(two, false);
    EXPECT_NE(status.find("ann, asks to take back o1-m7"), std::string::npos) << status;
    EXPECT_NE(status.find("bob, agrees to take back a move"), std::string::npos) << status;
    EXPECT_NE(status.find("* take back ann's o1-m7 and the move after it: voted ann, bob; not yet "
                          "you; to agree: halma vote takeback"),
        std::string::npos)
        << status;
}

TEST(TakeBackWords, NoVoteOpenNoLine) {
    auto v = three_players_ann_asks(1);
    v.mutable_seats(0)->set_voted_take_back(false);
    v.set_take_back_seat(-1);
    EXPECT_TRUE(open_vote_lines(v, "/vote").empty());
}
