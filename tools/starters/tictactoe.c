// botarena starter for tictactoe in C: it reads every line of the protocol into named variables
// and prints a legal move; the strategy is yours to write.
// Protocol: docs/games/tictactoe.md in botarena (input lines, answers, rules).
// Play it: botarena play tictactoe <this file> random (compiled as CodinGame does: gcc -std=gnu17)
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

int main(void)
{
    while (1) {
        int opponentRow = read_int();           // -1 -1 on the very first turn
        int opponentCol = read_int();
        int validActionCount = read_int();
        int rows[9], cols[9];
        for (int i = 0; i < validActionCount; i++) {
            rows[i] = read_int();
            cols[i] = read_int();
        }

        fprintf(stderr, "opponent played %d %d\n", opponentRow, opponentCol);   // debug: stderr
        printf("%d %d\n", rows[0], cols[0]);    // the first valid action
        fflush(stdout);
    }
}
