/* POJ 1077 style: boards until end of input, one answer each, printf without fflush. */
#include "core.h"
int main(void) {
    char path[64];
    int p[9];
    bfs();
    for (;;) {
        if (!read_board(p)) return 0;
        if (solve(p, path) < 0) printf("unsolvable\n");
        else printf("%s\n", path);
    }
}
