// botarena starter for number_maze_duel in C: it reads every line of the protocol into named
// variables and prints a legal move; the strategy is yours to write.
// Protocol: docs/games/number_maze_duel.md in botarena (input lines, answers, rules).
// Play it: botarena play number_maze_duel <this file> random (compiled as CodinGame does: gcc -std=gnu17)
#include <stdio.h>
#include <stdlib.h>

// Reads one integer; at the end of input the game is over (botarena closed stdin): exit cleanly.
static int read_int(void)
{
    int value;
    if (scanf("%d", &value) != 1)
        exit(0);
    return value;
}

static const char *DIRECTIONS[4] = {"UP", "RIGHT", "DOWN", "LEFT"};
static const int ROW_STEPS[4] = {-1, 0, 1, 0};
static const int COL_STEPS[4] = {0, 1, 0, -1};

int main(void)
{
    int height = read_int();
    int width = read_int();
    int turns = read_int();
    char grid[64][65];                          // '#' wall, '.' empty, '1'-'9' points
    while (1) {
        int turnsLeft = read_int();
        int myScore = read_int();
        int myRow = read_int();
        int myCol = read_int();
        int opponentScore = read_int();
        int opponentRow = read_int();
        int opponentCol = read_int();
        for (int r = 0; r < height; r++)
            if (scanf("%64s", grid[r]) != 1)
                return 0;

        const char *answer = "UP";
        for (int d = 0; d < 4; d++) {           // the first open neighbour
            int nextRow = myRow + ROW_STEPS[d], nextCol = myCol + COL_STEPS[d];
            if (nextRow >= 0 && nextRow < height && nextCol >= 0 && nextCol < width
                && grid[nextRow][nextCol] != '#') {
                answer = DIRECTIONS[d];
                break;
            }
        }
        fprintf(stderr, "turns left %d of %d, score %d to %d, opponent at %d %d\n", turnsLeft,
                turns, myScore, opponentScore, opponentRow, opponentCol);
        printf("%s\n", answer);
        fflush(stdout);
    }
}
