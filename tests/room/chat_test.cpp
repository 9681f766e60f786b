// Chat and the cleaning of what people type for others' terminals: control characters (C0,
// DEL, C1) become spaces, everything else in valid UTF-8 passes untouched.
#include "room_test_support.h"

#include <gtest/gtest.h>

using namespace halma::testing;

TEST(SanitizeText, LeavesPlainTextAlone) {
    for (std::string s : { "", "hello", "o1-m7, gg!", "~{}|" }) EXPECT_EQ(sanitize_text(s), s);
}

TEST(SanitizeText, C0ControlsAndDelBecomeSpaces) {
    EXPECT_EQ(sanitize_text("a\tb\nc\rd"), "a b c d");
    EXPECT_EQ(sanitize_text("\x1b[2J\x1b]0;pwned\x07"), " [2J ]0;pwned ");
    EXPECT_EQ(sanitize_text(std::string("nul\0byte", 8)), "nul byte");
    EXPECT_EQ(sanitize_text("del\x7f"), "del ");
    for (int c = 0; c < 0x20; ++c)
        EXPECT_EQ(sanitize_text(std::string(1, static_cast<char>(c))), " ") << c;
}

TEST(SanitizeText, C1ControlsBecomeSpacesWholly) {
    // U+0080..U+009F are two bytes, C2 80..C2 9F: the character becomes one space, so the
    // text stays UTF-8.
    for (int b = 0x80; b <= 0x9f; ++b) {
        std::string s = "x\xc2" + std::string(1, static_cast<char>(b)) + "y";
        std::string clean = sanitize_text(s);
        EXPECT_EQ(clean, "x y") << std::hex << b;
        EXPECT_TRUE(valid_utf8(clean));
    }
    EXPECT_EQ(sanitize_text("\xc2\x9b"
                            "31m"),
        " 31m")
        << "CSI";
}

TEST(SanitizeText, KeepsValidUtf8Intact) {
    // Characters whose bytes lie near the control ranges: Latin-1 letters after C1 (C2 A0 ...),
    // continuation bytes 80..9F in longer characters, and four-byte ones.
    for (std::string s :
        { "\xc2\xa0nbsp", "\xc2\xbf?", "é ü ß", "\xc3\x80\xc3\x9f", "日本語", "\xe2\x82\xac 5",
            "\xe0\xa0\x80", "\xf0\x9f\x8e\xb2 die", "\xf0\x90\x80\x80", "Zoë \xc4\x80" }) {
        EXPECT_EQ(sanitize_text(s), s) << s;
        EXPECT_TRUE(valid_utf8(sanitize_text(s)));
    }
}

TEST(SanitizeText, BytesThatAreNotUtf8BecomeReplacementCharacters) {
    // A config file or a command line can hand over anything; protobuf strings must be UTF-8.
    EXPECT_EQ(sanitize_text("ab\xc2"), "ab\xef\xbf\xbd") << "a lone lead byte at the end";
    EXPECT_EQ(sanitize_text("\xff\xfe"), "\xef\xbf\xbd\xef\xbf\xbd");
    EXPECT_EQ(sanitize_text("\xc0\xaf"), "\xef\xbf\xbd\xef\xbf\xbd") << "overlong '/'";
    EXPECT_EQ(sanitize_text("\xed\xa0\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd") << "surrogate";
    EXPECT_TRUE(valid_utf8(sanitize_text("\x80\x80 x \xf5\x80")));
}

TEST(SanitizeText, CutsOnACharacterBoundary) {
    EXPECT_EQ(sanitize_text("abc", 2), "ab");
    EXPECT_EQ(sanitize_text("aé", 2), "a");
    EXPECT_EQ(sanitize_text("日本", 5), "日");
    EXPECT_EQ(sanitize_text("日本", 6), "日本");
}

TEST(SanitizeText, BidiControlsBecomeSpaces) {
    // U+202E (right-to-left override) can make one name look like another.
    EXPECT_EQ(sanitize_text("ann\xe2\x80\xaenib"), "ann nib");
    EXPECT_EQ(sanitize_text("\xe2\x81\xa6x\xe2\x81\xa9"), " x ") << "isolates";
}

// A line separator made one chat line read as two, the second seemingly another's.
TEST(SanitizeText, LineSeparatorsAndBidiMarksBecomeSpaces) {
    EXPECT_EQ(sanitize_text("hi\u2028ann: let us cancel\u2029!"), "hi ann: let us cancel !");
    EXPECT_EQ(sanitize_text("a\u200eb\u200fc"), "a b c");
}

// Names that look alike are alike (a red-team QA pass: "ann" and a zero-width space read as
// the host's player).
TEST(CleanName, WhatShowsAsNothingGoesAndEverySpaceIsOne) {
    EXPECT_EQ(clean_name("ann\u200b"), "ann");
    EXPECT_EQ(clean_name("\ufeffa\u00adn\u200dn\u2060"), "ann");
    EXPECT_EQ(clean_name("ann\u00a0"), "ann");
    EXPECT_EQ(clean_name("\u3000ann  \u2003 lee "), "ann lee");
    EXPECT_EQ(clean_name("ann\u2028x"), "ann x");
    EXPECT_EQ(clean_name("\u200b\u00a0"), "");
    EXPECT_EQ(
        clean_name("caf\u00e9 \u043a\u043e\u0442"), "caf\u00e9 \u043a\u043e\u0442"); // letters stay
    EXPECT_EQ(clean_name("abcdef", 4), "abcd");
}

TEST(AuthorityJoin, ANameThatLooksLikeAnotherGetsItsNumber) {
    TwoPlayers p;
    for (std::string lookalike : { "ann\u200b", "\u00a0ann", "ann\ufeff", "a\u00adnn" }) {
        auto ticket = p.room.join(lookalike, "", true, at_ms(100));
        ASSERT_TRUE(ticket);
        std::string name = p.room.state().member(ticket->member)->name;
        EXPECT_EQ(name.rfind("ann (", 0), 0u) << "'" << lookalike << "' joined as '" << name << "'";
    }
}

TEST(Chat, ALineIsPostedCleaned) {
    TwoPlayers p;
    p.room.take_events();
    ASSERT_FALSE(p.room.act(p.ann.token, action::Chat { "gg\x1b[0m\xc2\x85!" }, at_ms(50)));
    auto events = p.room.take_events();
    ASSERT_EQ(events.size(), 1u);
    auto* chat = std::get_if<event::Chat>(&events[0].body);
    ASSERT_NE(chat, nullptr);
    EXPECT_EQ(chat->member, p.ann.member);
    EXPECT_EQ(chat->text, "gg [0m !");
    ASSERT_EQ(p.room.state().chat().size(), 1u);
    const ChatLine& line = p.room.state().chat()[0];
    EXPECT_EQ(line.name, "ann");
    EXPECT_EQ(line.text, "gg [0m !");
    EXPECT_EQ(line.seq, events[0].seq);
    EXPECT_EQ(line.time_ms, at_ms(50).wall_ms);
}

TEST(Chat, SpectatorsMayChat) {
    TwoPlayers p;
    auto w = p.room.join("wes", "", true, at_ms(20));
    ASSERT_FALSE(p.room.act(w->token, action::Chat { "nice move" }, at_ms(21)));
    EXPECT_EQ(p.room.state().chat().back().name, "wes");
}

TEST(Chat, EmptyBlankAndLongLinesAreRefused) {
    TwoPlayers p;
    p.room.take_events();
    auto refusal = p.room.act(p.ann.token, action::Chat { "" }, at_ms(20));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, Refusal::Code::kBadRequest);
    EXPECT_EQ(refusal->message, "nothing to say");
    refusal = p.room.act(p.ann.token, action::Chat { "  \t " }, at_ms(20));
    ASSERT_TRUE(refusal) << "a blank line is nothing to say too";
    EXPECT_EQ(refusal->message, "nothing to say");

    refusal = p.room.act(p.ann.token, action::Chat { std::string(501, 'x') }, at_ms(21));
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, Refusal::Code::kBadRequest);
    EXPECT_EQ(refusal->message, "a chat line is at most 500 bytes");
    // Bytes, not characters: 167 three-byte characters are 501 bytes.
    std::string wide;
    for (int i = 0; i < 167; ++i) wide += "日";
    EXPECT_TRUE(p.room.act(p.ann.token, action::Chat { wide }, at_ms(22)));
    EXPECT_TRUE(p.room.take_events().empty());

    EXPECT_FALSE(p.room.act(p.ann.token, action::Chat { std::string(500, 'x') }, at_ms(23)));
    EXPECT_EQ(p.room.state().chat().size(), 1u);
}
