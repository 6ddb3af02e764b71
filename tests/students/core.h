/* The 8-puzzle, as a student solves it: one breadth-first search from the goal
   `1 2 3 4 5 6 7 8 x` over all 9! boards, then each case walks down to the goal.
   Boards are read as 9 tokens, the blank as `x` or `0`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int fact[9] = {1, 1, 2, 6, 24, 120, 720, 5040, 40320};
static signed char toward[362880]; /* move toward the goal; -1 unseen; 4 = the goal */
static int queue[362880];
static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
static const char letter[4] = {'u', 'd', 'l', 'r'};
static const int opposite[4] = {1, 0, 3, 2};

static int rank9(const int *p) {
    int r = 0;
    for (int i = 0; i < 9; i++) {
        int c = 0;
        for (int j = i + 1; j < 9; j++)
            if (p[j] < p[i]) c++;
        r += c * fact[8 - i];
    }
    return r;
}
static int pack(const int *p) { int v = 0; for (int i = 0; i < 9; i++) v = v * 9 + p[i]; return v; }
static void unpack(int v, int *p) { for (int i = 8; i >= 0; i--) { p[i] = v % 9; v /= 9; } }
static int blank_of(const int *p) { for (int i = 0; i < 9; i++) if (p[i] == 0) return i; return -1; }

static void bfs(void) {
    int g[9] = {1, 2, 3, 4, 5, 6, 7, 8, 0}, head = 0, tail = 0;
    memset(toward, -1, sizeof toward);
    toward[rank9(g)] = 4;
    queue[tail++] = pack(g);
    while (head < tail) {
        int p[9];
        unpack(queue[head++], p);
        int b = blank_of(p);
        for (int d = 0; d < 4; d++) {
            int r = b / 3 + dr[d], c = b % 3 + dc[d];
            if (r < 0 || r > 2 || c < 0 || c > 2) continue;
            int t = r * 3 + c;
            p[b] = p[t]; p[t] = 0;
            int k = rank9(p);
            if (toward[k] < 0) { toward[k] = (signed char)opposite[d]; queue[tail++] = pack(p); }
            p[t] = p[b]; p[b] = 0;
        }
    }
}

/* The moves to the goal in `out`, or -1 when the goal cannot be reached. */
static int solve(int *p, char *out) {
    int n = 0;
    if (toward[rank9(p)] < 0) return -1;
    for (int d; (d = toward[rank9(p)]) != 4;) {
        int b = blank_of(p), t = (b / 3 + dr[d]) * 3 + b % 3 + dc[d];
        p[b] = p[t]; p[t] = 0;
        out[n++] = letter[d];
    }
    out[n] = 0;
    return n;
}

static int token(const char *t) { return (t[0] == 'x' || t[0] == 'X') ? 0 : atoi(t); }

/* Reads one board (9 tokens, the blank as `x` or `0`) into p; 0 at the end of input. */
static int read_board(int *p) {
    char t[16];
    for (int i = 0; i < 9; i++) {
        if (scanf("%15s", t) != 1) return 0;
        p[i] = token(t);
    }
    return 1;
}
