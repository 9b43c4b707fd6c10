// botarena starter for xmas_rush in C++: it reads every line of the protocol into named
// variables and prints a legal move; the strategy is yours to write.
// Protocol: docs/games/xmas_rush.md in botarena (input lines, answers, rules).
// Play it: botarena play xmas_rush <this file> random (compiled as CodinGame does: g++ -std=gnu++20)
#include <iostream>
#include <string>
#include <vector>

using namespace std;

struct PlayerInfo {
    int numPlayerCards, playerX, playerY;
    string playerTile;
};

struct Item {
    string itemName;
    int itemX, itemY, itemPlayerId;             // (-1, -1): on my hand tile; (-2, -2): theirs
};

struct Quest {
    string questItemName;
    int questPlayerId;
};

int main()
{
    while (true) {
        int turnType;                           // 0 PUSH, 1 MOVE
        if (!(cin >> turnType))
            return 0;                           // end of input: the game is over
        vector<vector<string>> tiles(7, vector<string>(7));   // tiles[y][x]: "0110" = UP RIGHT DOWN LEFT
        for (vector<string> &row : tiles)
            for (string &tile : row)
                cin >> tile;
        PlayerInfo players[2];                  // me, then the opponent
        for (PlayerInfo &player : players)
            cin >> player.numPlayerCards >> player.playerX >> player.playerY >> player.playerTile;
        int numItems;
        cin >> numItems;
        vector<Item> items(numItems);
        for (Item &item : items)
            cin >> item.itemName >> item.itemX >> item.itemY >> item.itemPlayerId;
        int numQuests;
        cin >> numQuests;
        vector<Quest> quests(numQuests);        // my revealed quests first
        for (Quest &quest : quests)
            cin >> quest.questItemName >> quest.questPlayerId;

        cerr << "I am at " << players[0].playerX << " " << players[0].playerY << " with "
             << players[0].numPlayerCards << " quests to go" << endl;
        cout << (turnType == 0 ? "PUSH 3 RIGHT" : "PASS") << endl;
    }
}
