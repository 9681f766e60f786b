// What halma play says of a line that is not a move: words get how to say them as chat, a
// mistyped move gets its refusal (which says what is wrong with it).
#include "cli/client/play_words.h"

#include <gtest/gtest.h>

using namespace halma::cli;

// Every letter of "hello mom" is a row's: it was told "'hello' is not a hole", while "i want to
// win" was told how to chat (a family QA pass).
TEST(ChatHint, WordsAreToldHowToChat) {
    for (const char* said : { "who is winning?", "i want to win", "mom cheated!", "hello mom",
             "hello", "n1-m5 please" })
        EXPECT_EQ(chat_hint(said).value_or(""),
            std::string("'") + said + "' is not a move; to chat, type /c " + said)
            << said;
}

TEST(ChatHint, MistypedMovesAreLeftToTheirRefusal) {
    for (const char* typed : { "zz", "n1 m55", "n1m5", "o1 - m7", "N1\u2013M5", "q", "a1 b" })
        EXPECT_FALSE(chat_hint(typed)) << typed;
}
