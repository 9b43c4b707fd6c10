// botarena starter for calculation in C++: it reads every line of the protocol into named
// variables and prints a legal move; the strategy is yours to write.
// Protocol: docs/games/calculation.md in botarena (input lines, answers, rules).
// Play it: botarena play calculation <this file> (compiled as CodinGame does: g++ -std=gnu++20)
#include <iostream>
#include <string>
#include <vector>

using namespace std;

// Foundation f builds by f + 1 modulo 13 (ranks 1-13), up to a king.
bool takes(int foundation, int size, int top, int card)
{
    return size < 13 && card == (top + foundation) % 13 + 1;
}

int main()
{
    int foundationCount, wastePileCount;        // 4 4
    cin >> foundationCount >> wastePileCount;
    while (true) {
        int card, unseen;                       // card 0: the stock is spent
        if (!(cin >> card >> unseen))
            return 0;                           // end of input: the game is over
        vector<int> sizes(foundationCount), tops(foundationCount);
        for (int f = 0; f < foundationCount; f++)
            cin >> sizes[f] >> tops[f];
        vector<vector<int>> wastePiles(wastePileCount);     // bottom first
        for (vector<int> &cards : wastePiles) {
            int size;
            cin >> size;
            cards.resize(size);
            for (int &pileCard : cards)
                cin >> pileCard;
        }

        string answer = "WASTE 0";              // legal while the stock lasts
        for (int f = 0; f < foundationCount; f++) {
            for (int w = 0; w < wastePileCount; w++)
                if (!wastePiles[w].empty() && takes(f, sizes[f], tops[f], wastePiles[w].back()))
                    answer = "MOVE " + to_string(w) + " " + to_string(f);
            if (card != 0 && takes(f, sizes[f], tops[f], card))
                answer = "BUILD " + to_string(f);
        }
        cerr << "card " << card << ", " << unseen << " unseen" << endl;
        cout << answer << endl;
    }
}
