// botarena starter for number_maze in C++: it reads every line of the protocol into named
// variables and prints a legal move; the strategy is yours to write.
// Protocol: docs/games/number_maze.md in botarena (input lines, answers, rules).
// Play it: botarena play number_maze <this file> (compiled as CodinGame does: g++ -std=gnu++20)
#include <iostream>
#include <string>
#include <vector>

using namespace std;

const string DIRECTIONS[4] = {"UP", "RIGHT", "DOWN", "LEFT"};
const int ROW_STEPS[4] = {-1, 0, 1, 0};
const int COL_STEPS[4] = {0, 1, 0, -1};

int main()
{
    int height, width, turns;
    cin >> height >> width >> turns;
    while (true) {
        int turnsLeft, score;
        if (!(cin >> turnsLeft >> score))
            return 0;                           // end of input: the game is over
        int row, col;                           // the character
        cin >> row >> col;
        vector<string> grid(height);            // '#' wall, '.' empty, '1'-'9' points
        for (string &line : grid)
            cin >> line;

        string answer = "UP";
        for (int d = 0; d < 4; d++) {           // the first open neighbour
            int nextRow = row + ROW_STEPS[d], nextCol = col + COL_STEPS[d];
            if (nextRow >= 0 && nextRow < height && nextCol >= 0 && nextCol < width
                && grid[nextRow][nextCol] != '#') {
                answer = DIRECTIONS[d];
                break;
            }
        }
        cerr << "turns left " << turnsLeft << " of " << turns << ", score " << score << endl;
        cout << answer << endl;
    }
}
