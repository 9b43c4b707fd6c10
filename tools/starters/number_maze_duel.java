// botarena starter for number_maze_duel in Java: it reads every line of the protocol into named
// variables and prints a legal move; the strategy is yours to write.
// Protocol: docs/games/number_maze_duel.md in botarena (input lines, answers, rules).
// Play it: botarena play number_maze_duel Player.java random (CodinGame runs the class Player)
import java.util.Scanner;

class Player {

    static final String[] DIRECTIONS = {"UP", "RIGHT", "DOWN", "LEFT"};
    static final int[] ROW_STEPS = {-1, 0, 1, 0};
    static final int[] COL_STEPS = {0, 1, 0, -1};

    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        int height = in.nextInt();
        int width = in.nextInt();
        int turns = in.nextInt();
        while (in.hasNextInt()) {                   // no more input: the game is over
            int turnsLeft = in.nextInt();
            int myScore = in.nextInt();
            int myRow = in.nextInt();
            int myCol = in.nextInt();
            int opponentScore = in.nextInt();
            int opponentRow = in.nextInt();
            int opponentCol = in.nextInt();
            String[] grid = new String[height];     // '#' wall, '.' empty, '1'-'9' points
            for (int r = 0; r < height; r++) {
                grid[r] = in.next();
            }

            String answer = "UP";
            for (int d = 0; d < 4; d++) {           // the first open neighbour
                int nextRow = myRow + ROW_STEPS[d];
                int nextCol = myCol + COL_STEPS[d];
                if (nextRow >= 0 && nextRow < height && nextCol >= 0 && nextCol < width
                        && grid[nextRow].charAt(nextCol) != '#') {
                    answer = DIRECTIONS[d];
                    break;
                }
            }
            System.err.println("turns left " + turnsLeft + " of " + turns + ", score " + myScore
                    + " to " + opponentScore + ", opponent at " + opponentRow + " " + opponentCol);
            System.out.println(answer);
        }
    }
}
