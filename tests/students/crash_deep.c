/* A C solver that crashes on the deepest boards: its recursive search runs out of stack
 * on boards 29 moves or more from the goal. The crash is made certain here (SIGSEGV, as a
 * stack overflow ends) instead of depending on the stack's size; every other board is
 * answered right, one line each, flushed. */
#include <signal.h>
#include "core.h"
int main(void) {
    char path[64];
    int p[9];
    bfs();
    for (;;) {
        if (!read_board(p)) return 0;
        int n = solve(p, path);
        if (n >= 29) raise(SIGSEGV);
        if (n < 0) printf("unsolvable\n");
        else printf("%s\n", path);
        fflush(stdout);
    }
}
