// Competitive-programming C++: fast I/O, "\n" (never flushed until exit).
#include <iostream>
#include <string>
extern "C" {
#include "core.h"
}
int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    bfs();
    std::string t;
    char path[64];
    int p[9];
    while (true) {
        for (int i = 0; i < 9; i++) {
            if (!(std::cin >> t)) return 0;
            p[i] = token(t.c_str());
        }
        if (solve(p, path) < 0) std::cout << "unsolvable" << "\n";
        else std::cout << path << "\n";
    }
}
