// botarena starter for tictactoe in Java: it reads every line of the protocol into named
// variables and prints a legal move; the strategy is yours to write.
// Protocol: docs/games/tictactoe.md in botarena (input lines, answers, rules).
// Play it: botarena play tictactoe Player.java random (CodinGame runs the class Player)
import java.util.Scanner;

class Player {

    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        while (in.hasNextInt()) {                   // no more input: the game is over
            int opponentRow = in.nextInt();         // -1 -1 on the very first turn
            int opponentCol = in.nextInt();
            int validActionCount = in.nextInt();
            int[] rows = new int[validActionCount];
            int[] cols = new int[validActionCount];
            for (int i = 0; i < validActionCount; i++) {
                rows[i] = in.nextInt();
                cols[i] = in.nextInt();
            }

            System.err.println("opponent played " + opponentRow + " " + opponentCol);  // debug: stderr
            System.out.println(rows[0] + " " + cols[0]);                                // the first valid action
        }
    }
}
