/* One board per run: read it, answer, exit (the seed article's program). */
#include "core.h"
int main(void) {
    char path[64];
    int p[9];
    if (!read_board(p)) return 1;
    bfs();
    if (solve(p, path) < 0) printf("unsolvable\n");
    else printf("%s\n", path);
    return 0;
}
