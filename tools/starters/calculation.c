// botarena starter for calculation in C: it reads every line of the protocol into named
// variables and prints a legal move; the strategy is yours to write.
// Protocol: docs/games/calculation.md in botarena (input lines, answers, rules).
// Play it: botarena play calculation <this file> (compiled as CodinGame does: gcc -std=gnu17)
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

// Foundation f builds by f + 1 modulo 13 (ranks 1-13), up to a king.
static int takes(int foundation, int size, int top, int card)
{
    return size < 13 && card == (top + foundation) % 13 + 1;
}

int main(void)
{
    int foundationCount = read_int();          // 4
    int wastePileCount = read_int();           // 4
    int sizes[4], tops[4];                      // per foundation
    int wasteSizes[4], wasteCards[4][52];       // per waste pile, bottom first
    while (1) {
        int card = read_int();                  // 0: the stock is spent
        int unseen = read_int();
        for (int f = 0; f < foundationCount; f++) {
            sizes[f] = read_int();
            tops[f] = read_int();
        }
        for (int w = 0; w < wastePileCount; w++) {
            wasteSizes[w] = read_int();
            for (int i = 0; i < wasteSizes[w]; i++)
                wasteCards[w][i] = read_int();
        }

        char answer[32] = "WASTE 0";            // legal while the stock lasts
        for (int f = 0; f < foundationCount; f++) {
            for (int w = 0; w < wastePileCount; w++)
                if (wasteSizes[w] > 0 && takes(f, sizes[f], tops[f], wasteCards[w][wasteSizes[w] - 1]))
                    sprintf(answer, "MOVE %d %d", w, f);
            if (card != 0 && takes(f, sizes[f], tops[f], card))
                sprintf(answer, "BUILD %d", f);
        }
        fprintf(stderr, "card %d, %d unseen\n", card, unseen);
        printf("%s\n", answer);
        fflush(stdout);
    }
}
