// botarena starter for number_maze_duel in C++: it reads every line of the protocol into named
// variables and prints a legal move; the strategy is yours to write.
// Protocol: docs/games/number_maze_duel.md in botarena (input lines, answers, rules).
// Play it: botarena play number_maze_duel <this file> random (compiled as CodinGame does: g++ -std=gnu++20)
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
        int turnsLeft;
        if (!(cin >> turnsLeft))
            return 0;                           // end of input: the game is over
        int myScore, myRow, myCol;
        cin >> myScore >> myRow >> myCol;
        int opponentScore, opponentRow, opponentCol;
        cin >> opponentScore >> opponentRow >> opponentCol;
        vector<string> grid(height);            // '#' wall, '.' empty, '1'-'9' points
        for (string &line : grid)
            cin >> line;

        string answer = "UP";
        for (int d = 0; d < 4; d++) {           // the first open neighbour
            int nextRow = myRow + ROW_STEPS[d], nextCol = myCol + COL_STEPS[d];
            if (nextRow >= 0 && nextRow < height && nextCol >= 0 && nextCol < width
                && grid[nextRow][nextCol] != '#') {
                answer = DIRECTIONS[d];
                break;
            }
        }
        cerr << "turns left " << turnsLeft << " of " << turns << ", score " << myScore << " to "
             << opponentScore << ", opponent at " << opponentRow << " " << opponentCol << endl;
        cout << answer << endl;
    }
}
