/* A plain C IDA* with Manhattan distance for the 15-puzzle: the reference the issue names
 * ("a plain C Manhattan IDA* generates about 150 million nodes per second per core"),
 * built and run beside tilebench by scripts/bench.sh so the two rates are measured on the
 * same machine in the same minute.
 *
 * Korf's conventions, so the node counts must equal tilebench's: goal with the blank first,
 * blank moves in the order up, left, right, down, the move back never generated, every
 * generated node counted, search stops at the first solution.
 *
 * Input: lines "id,start,goal,expected_steps" (inputs/korf100.csv; '#' lines and the header
 * are skipped; the goal must be 0 1 ... 15). Output: "id,steps,generated,seconds" per line
 * and a total on stderr.
 *
 *   gcc -O3 -march=native -o ida scripts/c/ida_manhattan.c && ./ida < inputs/korf100.csv
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int board[16];
static int md[16][16];              /* md[tile][cell] */
static int adj[16][4];              /* adj[cell][move]: the blank's next cell, or -1 */
static unsigned long long generated;
static int bound, next_bound;

static int dfs(int blank, int g, int h, int last) {
    if (h == 0) return 1;
    for (int m = 0; m < 4; m++) {
        if (last == 3 - m) continue;
        int to = adj[blank][m];
        if (to < 0) continue;
        generated++;
        int tile = board[to];
        int ch = h - md[tile][to] + md[tile][blank];
        int f = g + 1 + ch;
        if (f > bound) {
            if (f < next_bound) next_bound = f;
            continue;
        }
        board[blank] = tile;
        board[to] = 0;
        int found = dfs(to, g + 1, ch, m);
        board[to] = tile;
        board[blank] = 0;
        if (found) return 1 + found;
    }
    return 0;
}

int main(void) {
    for (int c = 0; c < 16; c++) {
        int r = c / 4, col = c % 4;
        adj[c][0] = r > 0 ? c - 4 : -1; /* up */
        adj[c][1] = col > 0 ? c - 1 : -1; /* left */
        adj[c][2] = col < 3 ? c + 1 : -1; /* right */
        adj[c][3] = r < 3 ? c + 4 : -1; /* down */
        for (int t = 1; t < 16; t++)
            md[t][c] = abs(r - t / 4) + abs(col - t % 4);
    }
    char line[512];
    double total_s = 0;
    unsigned long long total_nodes = 0;
    while (fgets(line, sizeof line, stdin)) {
        if (line[0] == '#' || strncmp(line, "id,", 3) == 0) continue;
        char *p = strchr(line, ',');
        if (!p) continue;
        int id = atoi(line), blank = 0, h = 0;
        p++;
        for (int c = 0; c < 16; c++) {
            board[c] = (int)strtol(p, &p, 10);
            if (board[c] == 0) blank = c; else h += md[board[c]][c];
        }
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        generated = 0;
        int steps = 0;
        for (bound = h;; bound = next_bound) {
            next_bound = 1 << 30;
            int found = dfs(blank, 0, h, -1);
            if (found) { steps = found - 1; break; }
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
        printf("%d,%d,%llu,%.6f\n", id, steps, generated, s);
        total_s += s;
        total_nodes += generated;
    }
    fprintf(stderr, "c: %llu nodes in %.3f s: %.1f M nodes/s\n", total_nodes, total_s,
            total_nodes / total_s / 1e6);
    return 0;
}
