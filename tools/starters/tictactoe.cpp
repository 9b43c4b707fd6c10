// botarena starter for tictactoe in C++: it reads every line of the protocol into named
// variables and prints a legal move; the strategy is yours to write.
// Protocol: docs/games/tictactoe.md in botarena (input lines, answers, rules).
// Play it: botarena play tictactoe <this file> random (compiled as CodinGame does: g++ -std=gnu++20)
#include <iostream>
#include <utility>
#include <vector>

using namespace std;

int main()
{
    while (true) {
        int opponentRow, opponentCol;           // -1 -1 on the very first turn
        if (!(cin >> opponentRow >> opponentCol))
            return 0;                           // end of input: the game is over
        int validActionCount;
        cin >> validActionCount;
        vector<pair<int, int>> validActions;
        for (int i = 0; i < validActionCount; i++) {
            int row, col;
            cin >> row >> col;
            validActions.emplace_back(row, col);
        }

        cerr << "opponent played " << opponentRow << " " << opponentCol << endl;  // debug: stderr
        cout << validActions[0].first << " " << validActions[0].second << endl;   // the first valid action
    }
}
