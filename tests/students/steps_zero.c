/* HDU style `steps`: a start line and a goal line of numbers (0 = the blank), the number
   of moves of a shortest path or -1; a breadth-first search per case, printf unflushed. */
#include "core.h"
static int seen[362880], dist_of[362880], stamp;
static int distance(const int *s, const int *g) {
    int head = 0, tail = 0, goal = rank9(g);
    stamp++;
    seen[rank9(s)] = stamp; dist_of[rank9(s)] = 0;
    queue[tail++] = pack(s);
    while (head < tail) {
        int p[9];
        unpack(queue[head++], p);
        int k = rank9(p);
        if (k == goal) return dist_of[k];
        int b = blank_of(p);
        for (int d = 0; d < 4; d++) {
            int r = b / 3 + dr[d], c = b % 3 + dc[d];
            if (r < 0 || r > 2 || c < 0 || c > 2) continue;
            int t = r * 3 + c;
            p[b] = p[t]; p[t] = 0;
            int n = rank9(p);
            if (seen[n] != stamp) { seen[n] = stamp; dist_of[n] = dist_of[k] + 1; queue[tail++] = pack(p); }
            p[t] = p[b]; p[b] = 0;
        }
    }
    return -1;
}
int main(void) {
    int s[9], g[9];
    for (;;) {
        for (int i = 0; i < 9; i++) if (scanf("%d", &s[i]) != 1) return 0;
        for (int i = 0; i < 9; i++) if (scanf("%d", &g[i]) != 1) return 0;
        printf("%d\n", distance(s, g));
    }
}
