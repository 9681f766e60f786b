// halma prints what hosts on the LAN wrote: every control character a terminal acts on must come
// out as visible text, and ordinary text (accents, the board's "·", tabs) unchanged.
#include "cli/client/reply_escape.h"
#include "halma/v1/api.pb.h"

#include <gtest/gtest.h>

namespace halma::cli {
namespace {

TEST(Printable, OrdinaryTextIsUnchanged) {
    EXPECT_EQ(printable("bob plays o1-m7\tok"), "bob plays o1-m7\tok");
    EXPECT_EQ(printable("Zoë · ß · 日本"), "Zoë · ß · 日本");
}

TEST(Printable, ControlCharactersAreShownEscaped) {
    EXPECT_EQ(printable("\x1b]0;pwned\x07"), "\\x1b]0;pwned\\x07");
    EXPECT_EQ(printable("a\nb\rc\x7f"), "a\\x0ab\\x0dc\\x7f");
    EXPECT_EQ(printable("\xc2\x9b"
                        "1m"),
        "\\u009b1m"); // C1 CSI, as UTF-8
    EXPECT_EQ(printable("\xe2\x80\xae"
                        "evil"),
        "\\u202eevil"); // right-to-left override
    EXPECT_EQ(printable("\xe2\x81\xa6x"), "\\u2066x"); // left-to-right isolate
}

TEST(Printable, BytesThatAreNotUtf8AreShownAsHex) {
    EXPECT_EQ(printable("\x9b"
                        "1m"),
        "\\x9b1m"); // a raw C1 byte, which some terminals obey
    EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf"); // overlong "/"
    EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80"); // a surrogate
    EXPECT_EQ(printable("ab\xe2\x80"), "ab\\xe2\\x80"); // cut short
}

TEST(MakePrintable, ReachesNestedAndRepeatedStrings) {
    v1::Reply error; // error and view are one of a Reply's bodies
    error.mutable_error()->set_message("no\x1b[2J");
    make_printable(error);
    EXPECT_EQ(error.error().message(), "no\\x1b[2J");
    v1::Reply reply;
    auto* view = reply.mutable_view();
    view->mutable_summary()->set_name("room\x1b[31m");
    view->add_seats()->set_name("seat\x07");
    view->add_spectators("spec\x1b");
    view->add_chat()->set_text("line\x1b]0;t\x07");
    make_printable(reply);
    EXPECT_EQ(view->summary().name(), "room\\x1b[31m");
    EXPECT_EQ(view->seats(0).name(), "seat\\x07");
    EXPECT_EQ(view->spectators(0), "spec\\x1b");
    EXPECT_EQ(view->chat(0).text(), "line\\x1b]0;t\\x07");
}

} // namespace
} // namespace halma::cli
