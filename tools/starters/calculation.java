// botarena starter for calculation in Java: it reads every line of the protocol into named
// variables and prints a legal move; the strategy is yours to write.
// Protocol: docs/games/calculation.md in botarena (input lines, answers, rules).
// Play it: botarena play calculation Player.java (CodinGame runs the class Player)
import java.util.Scanner;

class Player {

    /** Foundation f builds by f + 1 modulo 13 (ranks 1-13), up to a king. */
    static boolean takes(int foundation, int size, int top, int card) {
        return size < 13 && card == (top + foundation) % 13 + 1;
    }

    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        int foundationCount = in.nextInt();         // 4
        int wastePileCount = in.nextInt();          // 4
        while (in.hasNextInt()) {                   // no more input: the game is over
            int card = in.nextInt();                // 0: the stock is spent
            int unseen = in.nextInt();
            int[] sizes = new int[foundationCount];
            int[] tops = new int[foundationCount];
            for (int f = 0; f < foundationCount; f++) {
                sizes[f] = in.nextInt();
                tops[f] = in.nextInt();
            }
            int[][] wastePiles = new int[wastePileCount][];     // bottom first
            for (int w = 0; w < wastePileCount; w++) {
                int size = in.nextInt();
                wastePiles[w] = new int[size];
                for (int i = 0; i < size; i++) {
                    wastePiles[w][i] = in.nextInt();
                }
            }

            String answer = "WASTE 0";              // legal while the stock lasts
            for (int f = 0; f < foundationCount; f++) {
                for (int w = 0; w < wastePileCount; w++) {
                    int[] pile = wastePiles[w];
                    if (pile.length > 0 && takes(f, sizes[f], tops[f], pile[pile.length - 1])) {
                        answer = "MOVE " + w + " " + f;
                    }
                }
                if (card != 0 && takes(f, sizes[f], tops[f], card)) {
                    answer = "BUILD " + f;
                }
            }
            System.err.println("card " + card + ", " + unseen + " unseen");
            System.out.println(answer);
        }
    }
}
