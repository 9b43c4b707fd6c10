// botarena starter for othello in C++: it reads every line of the protocol into named variables
// and prints a legal move; the strategy is yours to write.
// Protocol: docs/games/othello.md in botarena (input lines, answers, rules).
// Play it: botarena play othello <this file> random (compiled as CodinGame does: g++ -std=gnu++20)
#include <iostream>
#include <string>
#include <vector>

using namespace std;

int main()
{
    int id;                                     // 0: black (moves first), 1: white
    int boardSize;
    cin >> id >> boardSize;
    while (true) {                              // asked only when it has a move
        vector<string> board(boardSize);        // '.', '0' or '1'; rank 1 on top
        for (string &line : board)
            if (!(cin >> line))
                return 0;                       // end of input: the game is over
        int actionCount;
        cin >> actionCount;
        vector<string> actions(actionCount);    // "d3": file a-h, rank 1-8
        for (string &action : actions)
            cin >> action;

        cerr << "I am player " << id << ", " << actionCount << " moves" << endl;
        cout << actions[0] << endl;             // the first legal move
    }
}
