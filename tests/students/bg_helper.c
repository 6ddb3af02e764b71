/* One board per run, and a helper started in the background at start-up (a student's
   "cache daemon": here a sleep) that keeps the run's stdout and stderr open. The marker
   argument names the helper so a test can find it. */
#include "core.h"
#include <stdlib.h>
int main(int argc, char **argv) {
    char path[64], cmd[128];
    int p[9];
    snprintf(cmd, sizeof cmd, "%s sleep %s &", argc > 2 ? argv[2] : "", argc > 1 ? argv[1] : "1000");
    if (system(cmd) != 0) return 3;
    if (!read_board(p)) return 1;
    bfs();
    if (solve(p, path) < 0) printf("unsolvable\n");
    else printf("%s\n", path);
    return 0;
}
