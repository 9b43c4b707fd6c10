// botarena starter for othello in C: it reads every line of the protocol into named variables
// and prints a legal move; the strategy is yours to write.
// Protocol: docs/games/othello.md in botarena (input lines, answers, rules).
// Play it: botarena play othello <this file> random (compiled as CodinGame does: gcc -std=gnu17)
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

// Reads one word (a board row, a move) into text, at most size - 1 characters; exits at the end.
static void read_word(char *text, int size)
{
    char format[16];
    sprintf(format, "%%%ds", size - 1);
    if (scanf(format, text) != 1)
        exit(0);
}

int main(void)
{
    int id = read_int();                        // 0: black (moves first), 1: white
    int boardSize = read_int();
    char board[8][9];                           // '.', '0' or '1'; rank 1 on top
    char actions[64][3];                        // "d3": file a-h, rank 1-8
    while (1) {                                 // asked only when it has a move
        for (int row = 0; row < boardSize; row++)
            read_word(board[row], sizeof board[row]);
        int actionCount = read_int();
        for (int i = 0; i < actionCount; i++)
            read_word(actions[i], sizeof actions[i]);

        fprintf(stderr, "I am player %d, %d moves\n", id, actionCount);
        printf("%s\n", actions[0]);             // the first legal move
        fflush(stdout);
    }
}
