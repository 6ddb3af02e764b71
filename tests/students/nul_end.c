/* A C student who writes the answer with its terminating NUL: fwrite(path, 1, n + 1, …). */
#include "core.h"
int main(void) {
    char path[64];
    int p[9];
    bfs();
    for (;;) {
        if (!read_board(p)) return 0;
        int n = solve(p, path);
        if (n < 0) printf("unsolvable\n");
        else { fwrite(path, 1, (size_t)n + 1, stdout); printf("\n"); }
        fflush(stdout);
    }
}
