// A C++ student who reads the board as nine ints (`cin >> int`), the blank as 0, and prints
// the moves. Sent `x` for the blank, `cin` fails and the loop ends without an answer.
#include <cstdio>
#include <iostream>
extern "C" {
#include "core.h"
}
int main() {
    bfs();
    int p[9];
    char path[64];
    while (true) {
        for (int i = 0; i < 9; i++)
            if (!(std::cin >> p[i])) return 0;
        if (solve(p, path) < 0) std::cout << "unsolvable" << std::endl;
        else std::cout << path << std::endl;
    }
}
