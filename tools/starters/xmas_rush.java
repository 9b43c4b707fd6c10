// botarena starter for xmas_rush in Java: it reads every line of the protocol into named
// variables and prints a legal move; the strategy is yours to write.
// Protocol: docs/games/xmas_rush.md in botarena (input lines, answers, rules).
// Play it: botarena play xmas_rush Player.java random (CodinGame runs the class Player)
import java.util.Scanner;

class Player {

    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        while (in.hasNextInt()) {                   // no more input: the game is over
            int turnType = in.nextInt();            // 0 PUSH, 1 MOVE
            String[][] tiles = new String[7][7];    // tiles[y][x]: "0110" = UP RIGHT DOWN LEFT, 1 a path
            for (int y = 0; y < 7; y++) {
                for (int x = 0; x < 7; x++) {
                    tiles[y][x] = in.next();
                }
            }
            int[] numPlayerCards = new int[2];      // [0] me, [1] the opponent
            int[] playerX = new int[2];
            int[] playerY = new int[2];
            String[] playerTile = new String[2];
            for (int p = 0; p < 2; p++) {
                numPlayerCards[p] = in.nextInt();
                playerX[p] = in.nextInt();
                playerY[p] = in.nextInt();
                playerTile[p] = in.next();
            }
            int numItems = in.nextInt();
            String[] itemName = new String[numItems];
            int[] itemX = new int[numItems];        // (-1, -1): on my hand tile; (-2, -2): theirs
            int[] itemY = new int[numItems];
            int[] itemPlayerId = new int[numItems];
            for (int i = 0; i < numItems; i++) {
                itemName[i] = in.next();
                itemX[i] = in.nextInt();
                itemY[i] = in.nextInt();
                itemPlayerId[i] = in.nextInt();
            }
            int numQuests = in.nextInt();
            String[] questItemName = new String[numQuests];     // my revealed quests first
            int[] questPlayerId = new int[numQuests];
            for (int i = 0; i < numQuests; i++) {
                questItemName[i] = in.next();
                questPlayerId[i] = in.nextInt();
            }

            System.err.println("I am at " + playerX[0] + " " + playerY[0] + " with "
                    + numPlayerCards[0] + " quests to go");
            System.out.println(turnType == 0 ? "PUSH 3 RIGHT" : "PASS");
        }
    }
}
