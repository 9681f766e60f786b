// `bench_ai match A B [--games N] [--opening PLIES] [--seed S] [--rules R]`: two players (see
// match_player.h) play N two-player games in pairs: each pair starts from the same seeded
// opening (PLIES random forward moves by the easy bot), once with A moving first and once with
// B. Every move is checked legal by the Game. Prints won/lost/drawn for A, the score with a
// 95% Wilson interval, the Elo difference it implies, and each side's time per move.
#pragma once

namespace halma::bench {

int run_match(int argc, char** argv);

} // namespace halma::bench
