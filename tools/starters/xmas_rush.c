// botarena starter for xmas_rush in C: it reads every line of the protocol into named variables
// and prints a legal move; the strategy is yours to write.
// Protocol: docs/games/xmas_rush.md in botarena (input lines, answers, rules).
// Play it: botarena play xmas_rush <this file> random (compiled as CodinGame does: gcc -std=gnu17)
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

// Reads one word (a tile, an item's name) into text, at most size - 1 characters; exits at the end.
static void read_word(char *text, int size)
{
    char format[16];
    sprintf(format, "%%%ds", size - 1);
    if (scanf(format, text) != 1)
        exit(0);
}

int main(void)
{
    char tiles[7][7][5];                        // tiles[y][x]: "0110" = UP RIGHT DOWN LEFT, 1 a path
    int numPlayerCards[2], playerX[2], playerY[2];
    char playerTile[2][5];                      // [0] me, [1] the opponent
    char itemName[64][32];
    int itemX[64], itemY[64], itemPlayerId[64]; // (-1, -1): on my hand tile; (-2, -2): theirs
    char questItemName[64][32];
    int questPlayerId[64];                      // my revealed quests first
    while (1) {
        int turnType = read_int();              // 0 PUSH, 1 MOVE
        for (int y = 0; y < 7; y++)
            for (int x = 0; x < 7; x++)
                read_word(tiles[y][x], sizeof tiles[y][x]);
        for (int p = 0; p < 2; p++) {
            numPlayerCards[p] = read_int();
            playerX[p] = read_int();
            playerY[p] = read_int();
            read_word(playerTile[p], sizeof playerTile[p]);
        }
        int numItems = read_int();
        for (int i = 0; i < numItems; i++) {
            read_word(itemName[i], sizeof itemName[i]);
            itemX[i] = read_int();
            itemY[i] = read_int();
            itemPlayerId[i] = read_int();
        }
        int numQuests = read_int();
        for (int i = 0; i < numQuests; i++) {
            read_word(questItemName[i], sizeof questItemName[i]);
            questPlayerId[i] = read_int();
        }

        fprintf(stderr, "I am at %d %d with %d quests to go\n", playerX[0], playerY[0],
                numPlayerCards[0]);
        puts(turnType == 0 ? "PUSH 3 RIGHT" : "PASS");
        fflush(stdout);
    }
}
