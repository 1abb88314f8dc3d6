// Russian-draughts perft from the start with Rein Halbersma's dctl (github.com/rhalbersma/dctl),
// the reference scripts/perft_vs.sh times tetrad against: bulk-counted, duplicate captures
// dropped, one thread. Prints "depth D leaves N seconds S".
//
// dctl is header-only and not part of tetrad. Its newest commit needs GCC 14 or Clang 18 with
// a C++23 library; with GCC 12 (Debian 12) take dctl at de565a1 (2023-01-28; later commits only
// adapt it to newer bit_set) and bit_set de915a7, tabula ab6451c, xstd 4a1625d (2023-03-08) side
// by side, plus Boost's headers, then:
//
//   g++ -std=c++2b -O3 -march=native -DNDEBUG -Idctl/include -Ibit_set/include \
//       -Itabula/include -Ixstd/include perft_dctl.cpp -o dctl-perft
#include <dctl/algo/traversal/root.hpp>
#include <dctl/core.hpp>
#include <chrono>
#include <cstdlib>
#include <iostream>

int main(int argc, char** argv)
{
        using namespace dctl::core;
        int const depth = argc > 1 ? std::atoi(argv[1]) : 9;
        auto const state = basic_state<russian, basic_board<rectangular<8, 8>>>::initial();
        auto const t0 = std::chrono::steady_clock::now();
        auto const n = dctl::algo::traversal::depth_limited_count<true>(state, depth, drop_duplicates_gen);
        auto const s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::cout << "depth " << depth << " leaves " << n << " seconds " << s << '\n';
}
