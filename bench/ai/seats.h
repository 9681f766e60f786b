// `bench_ai seats A,B,C... [--games N] [--seed S]`: games of 3 to 6 players (one per spec, see
// match_player.h), the seats rotated game by game so that every player sits in every seat
// position. Prints, per player, the games won (first place) and the mean place, the first
// player's win share per seat position (0 moves first), and whether every game finished.
#pragma once

namespace halma::bench {

int run_seats(int argc, char** argv);

} // namespace halma::bench
