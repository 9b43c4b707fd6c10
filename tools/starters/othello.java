// botarena starter for othello in Java: it reads every line of the protocol into named variables
// and prints a legal move; the strategy is yours to write.
// Protocol: docs/games/othello.md in botarena (input lines, answers, rules).
// Play it: botarena play othello Player.java random (CodinGame runs the class Player)
import java.util.Scanner;

class Player {

    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        int id = in.nextInt();                      // 0: black (moves first), 1: white
        int boardSize = in.nextInt();
        while (in.hasNext()) {                      // asked only when it has a move; no more input: the end
            String[] board = new String[boardSize]; // '.', '0' or '1'; rank 1 on top
            for (int row = 0; row < boardSize; row++) {
                board[row] = in.next();
            }
            int actionCount = in.nextInt();
            String[] actions = new String[actionCount];   // "d3": file a-h, rank 1-8
            for (int i = 0; i < actionCount; i++) {
                actions[i] = in.next();
            }

            System.err.println("I am player " + id + ", " + actionCount + " moves");
            System.out.println(actions[0]);         // the first legal move
        }
    }
}
