// The first seed article's BFS with an ordered set (POJ 1077, the version it calls too slow
// for the judge), as a benchmark peer for tilebench's bfs-set. The search is the article's:
// a board is a decimal number (the blank a 0), the queue an array of (board, parent, move,
// blank) records, repeated states found by std::set<int>::count and then inserted, the goal
// 1 2 3 4 5 6 7 8 x tested as each state is generated. Only the driver differs: it reads
// many boards, one per line (`2 3 4 1 5 x 7 6 8`), and prints for each the number of moves
// (-1 when none) and the solve's own time in nanoseconds, clearing the set after the clock
// stops, so a case costs what one run of the article's program does, less the process start.
//
//   g++ -O2 -o bfs_set scripts/c/bfs_set.cpp && echo "2 3 4 1 5 x 7 6 8" | ./bfs_set
#include <chrono>
#include <cstdio>
#include <set>
#include <vector>

struct Entry {
  int num, father, move, where;  // where: the blank's cell, 1..9
};

static const long long kPow10[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
                                   1000000000};
static const int kStep[4] = {-3, -1, 3, 1};

// Swaps the digits at cells a and b (1-based, from the left) of a 9-digit board.
static int swap_cells(int n, int a, int b) {
  long long da = n % kPow10[9 - a + 1] / kPow10[9 - a], db = n % kPow10[9 - b + 1] / kPow10[9 - b];
  long long r = n - da * kPow10[9 - a] - db * kPow10[9 - b];
  return (int)(r + db * kPow10[9 - a] + da * kPow10[9 - b]);
}

static std::vector<Entry> queue_(400000);
static std::set<int> seen;

// The number of moves from `start` (blank at cell `where`) to 123456780, or -1.
static int solve(int start, int where) {
  if (start == 123456780) return 0;
  int head = 0, tail = 0;
  queue_[tail++] = {start, -1, -1, where};
  seen.insert(start);
  while (head < tail) {
    Entry front = queue_[head];
    for (int i = 0; i < 4; i++) {
      Entry push = front;
      push.move = i;
      push.where = front.where + kStep[i];
      push.father = head;
      if (push.where <= 0 || push.where > 9 ||
          (i % 2 && (push.where - 1) / 3 != (front.where - 1) / 3))
        continue;
      push.num = swap_cells(push.num, front.where, push.where);
      if (seen.count(push.num)) continue;
      seen.insert(push.num);
      queue_[tail++] = push;
      if (push.num == 123456780) {
        int steps = 0;
        for (int g = tail - 1; queue_[g].father != -1; g = queue_[g].father) steps++;
        return steps;
      }
    }
    head++;
  }
  return -1;
}

int main() {
  char line[256];
  while (fgets(line, sizeof line, stdin)) {
    int num = 0, where = 0, cell = 0;
    for (char* p = line; *p && cell < 9; p++) {
      if (*p == 'x' || *p == '0') {
        num *= 10, where = ++cell;
      } else if (*p >= '1' && *p <= '8') {
        num = num * 10 + (*p - '0'), ++cell;
      }
    }
    if (cell != 9) {
      fprintf(stderr, "bfs_set: `%s` is not a 3x3 board; give 9 cells, x for the blank\n", line);
      return 2;
    }
    auto t0 = std::chrono::steady_clock::now();
    int steps = solve(num, where);
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                  std::chrono::steady_clock::now() - t0).count();
    seen.clear();
    printf("%d %lld\n", steps, (long long)ns);
    fflush(stdout);
  }
  return 0;
}
