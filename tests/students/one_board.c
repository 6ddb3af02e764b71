/* One board per run: read it, answer, exit (the seed article's program). */
#include "core.h"
int main(void) {
    char t[16], path[64];
    int p[9];
    for (int i = 0; i < 9; i++) {
        if (scanf("%15s", t) != 1) return 1;
        p[i] = token(t);
    }
    bfs();
    if (solve(p, path) < 0) printf("unsolvable\n");
    else printf("%s\n", path);
    return 0;
}
