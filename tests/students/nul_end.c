/* A C student who writes the answer with its terminating NUL: fwrite(path, 1, n + 1, …). */
#include "core.h"
int main(void) {
    char t[16], path[64];
    int p[9];
    bfs();
    for (;;) {
        for (int i = 0; i < 9; i++) {
            if (scanf("%15s", t) != 1) return 0;
            p[i] = token(t);
        }
        int n = solve(p, path);
        if (n < 0) printf("unsolvable\n");
        else { fwrite(path, 1, (size_t)n + 1, stdout); printf("\n"); }
        fflush(stdout);
    }
}
