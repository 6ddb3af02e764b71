/* POJ 1077 style: boards until end of input, one answer each, printf without fflush. */
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
        if (solve(p, path) < 0) printf("unsolvable\n");
        else printf("%s\n", path);
    }
}
