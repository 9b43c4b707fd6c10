import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * RefereeHost: one long-lived JVM that plays CodinGame SDK referees game after game.
 *
 * <p>Part of botarena: {@code referee/external/host.py} compiles it with the user's JDK at first
 * use (into a cache) and runs one host per job slot for a game file with {@code host = true}
 * (see docs/codingame-referees.md). It is botarena's own code, not CodinGame's.
 *
 * <p>A CodinGame referee (a game built on the CodinGame game engine SDK) normally runs as one
 * JVM per game: {@code java -cp ... com.codingame.gameengine.core.RefereeMain}. Starting a JVM
 * and Guice costs ~0.5 s of CPU a game, more than the game itself. This host pays it once: each
 * game runs in a fresh class loader, through the SDK's public
 * {@code RefereeMain.start(InputStream, PrintStream)}, on streams cut out of this JVM's stdin and
 * stdout. It imports nothing from the SDK at compile time: everything is called by reflection
 * through the game's loader, so one build of this file serves every SDK version.
 *
 * <h2>Command line</h2>
 * <pre>
 *   java [-XX:TieredStopAtLevel=1] -cp LIBS:HOST_DIR RefereeHost GAME_CLASSPATH
 * </pre>
 * <ul>
 *   <li>{@code LIBS} (the JVM class path): the third-party jars the referee needs (Guice, Gson,
 *       Guava, commons-logging, log4j, ...) and the folder holding RefereeHost.class. These are
 *       loaded once and shared by every game.</li>
 *   <li>{@code GAME_CLASSPATH} (the one argument): the SDK engine (core and modules) and the
 *       game's own classes, as folders or jars joined by the platform path separator (':' on
 *       Linux). A fresh loader over exactly these is made for each game. The SDK core must be here
 *       and NOT on the JVM class path: the SDK finds the game's Referee through its own loader,
 *       and the game's static state must die with the game. The host refuses to start (exit 2)
 *       if the JVM class path already provides the SDK.</li>
 * </ul>
 *
 * <h2>Framing (stdin and stdout, UTF-8, one message = a header line then n lines)</h2>
 * The SDK's own framing is kept: a header {@code [[COMMAND] n]} followed by n lines. The host
 * adds four commands of its own, all prefixed BOTARENA_:
 * <ol>
 *   <li>At start-up, once the game class path is checked, the host prints
 *       {@code [[BOTARENA_READY] 0]}.</li>
 *   <li>To start a game, the driver sends {@code [[BOTARENA_GAME] n]} followed by n lines
 *       {@code key=value}: the system properties of that game, typically
 *       {@code game.mode=multi} and {@code league.level=3}. They are set before the game and
 *       restored after it (they are JVM-wide: one game at a time per host).</li>
 *   <li>Then the driver speaks the plain RefereeMain protocol ({@code [[INIT] ...]},
 *       {@code [[GET_GAME_INFO] 0]}, {@code [[SET_PLAYER_OUTPUT] n]}, ...) and reads the
 *       referee's messages exactly as from a fresh {@code RefereeMain} process.</li>
 *   <li>When {@code RefereeMain.start} returns, the game's streams are cut (see below) and the
 *       host prints {@code [[BOTARENA_END] 0]}. If it threw, the host first prints
 *       {@code [[BOTARENA_FAIL] n]} with the stack trace (n lines; the SDK may already have sent
 *       its own {@code [[FAIL] n]} messages). If threads the game started still run after it
 *       (and a moment's wait), the host prints {@code [[BOTARENA_THREADS] n]} with their names
 *       before END: the driver then retires this host (a fresh one plays the next game). The
 *       driver waits for END before sending the next BOTARENA_GAME.</li>
 * </ol>
 * Messages that arrive between games (the GET_GAME_INFO an SDK-style runner sends after the
 * last frame, a late SET_PLAYER_OUTPUT after a crash) are read and dropped, so the next game
 * starts on a clean stream. A BOTARENA_GAME that arrives while a game still runs ends that
 * game's input (the referee sees end of stream and fails) and then starts the new game.
 * End of stdin between games: the host exits 0.
 *
 * <h2>What the host does for each game, and why</h2>
 * <ul>
 *   <li>Runs the game on its own thread whose context class loader is the game's loader
 *       (commons-logging and Guice look classes up through it).</li>
 *   <li>Sets RefereeMain's private static {@code inProduction} to true, as
 *       {@code RefereeMain.main} does (start() does not), so referees that ask
 *       {@code RefereeMain.isInProduction()} behave as under CodinGame's own runner.</li>
 *   <li>Gives the referee an input stream that hands over stdin one line at a time and never
 *       closes stdin (the SDK closes its Scanner, and so its stream, at the end of a game), and a
 *       PrintStream onto stdout that flushes every line and never closes stdout.</li>
 *   <li>Keeps {@code System.out} silenced and {@code System.in} unreadable, as RefereeMain.main
 *       does, so a referee's debug prints cannot corrupt the protocol; {@code System.err} is the
 *       referee's free-form log.</li>
 *   <li>Runs the game in a thread group of its own, so the threads the referee starts are known;
 *       when start() returns, the game's output stream drops every later write and its input
 *       stream reads as ended: a thread the game left behind cannot write into the next game's
 *       protocol, nor read its commands.</li>
 *   <li>After the game: {@code LogFactory.release(loader)} (commons-logging caches a factory per
 *       context class loader, which would keep every game's classes alive), then closes the
 *       loader.</li>
 * </ul>
 *
 * <h2>Limits</h2>
 * A referee that calls System.exit, loops for ever or exhausts memory takes the host down or
 * hangs it: the driver must watch the process (a time limit per message) and restart it. After
 * a VirtualMachineError (e.g. OutOfMemoryError) the host reports the failure, ends the game, and
 * exits with status 3 rather than go on in an unknown state. Log4j keeps one logger context per
 * class loader unless the JVM runs with
 * {@code -Dlog4j2.contextSelector=org.apache.logging.log4j.core.selector.BasicContextSelector};
 * the host sets that property itself when it is absent (before any game logs).
 */
public final class RefereeHost {
    private static final String REFEREE_MAIN = "com.codingame.gameengine.core.RefereeMain";
    private static final String END = "[[BOTARENA_END] 0]";
    private static final String READY = "[[BOTARENA_READY] 0]";
    private static final long LINGER_WAIT_MS = 200; // a game's threads may take a moment to end
    private static final Pattern HEADER = Pattern.compile("\\[\\[(.+)\\] ?([0-9]+)\\]");

    private final URL[] gameUrls;
    private final LineSource stdin;
    private final PrintStream stdout;
    private int gameCount;

    private RefereeHost(URL[] gameUrls, LineSource stdin, PrintStream stdout) {
        this.gameUrls = gameUrls;
        this.stdin = stdin;
        this.stdout = stdout;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1 || args[0].isEmpty()) {
            System.err.println("usage: java -cp LIBS:HOST_DIR RefereeHost SDK_AND_GAME_CLASSPATH"
                    + " (got " + args.length + " arguments; pass the SDK engine and game classes as one"
                    + " '" + File.pathSeparator + "'-joined argument)");
            System.exit(2);
        }
        if (System.getProperty("log4j2.contextSelector") == null) {
            System.setProperty("log4j2.contextSelector",
                    "org.apache.logging.log4j.core.selector.BasicContextSelector");
        }
        URL[] urls = toUrls(args[0]);
        // The real stdin/stdout become the protocol channels; System.in/out are taken away from
        // the referee, as CodinGame's RefereeMain.main does.
        LineSource in = new LineSource(new BufferedInputStream(new FileInputStream(FileDescriptor.in), 1 << 16));
        PrintStream out = new PrintStream(
                new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16), false,
                StandardCharsets.UTF_8); // flushed by each game's autoflushing stream and after our own lines
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        System.setIn(new InputStream() {
            @Override
            public int read() {
                throw new IllegalStateException("a referee cannot read System.in under RefereeHost");
            }
        });
        checkClasspath(urls);
        out.println(READY);
        out.flush();
        new RefereeHost(urls, in, out).serve();
    }

    /** Splits the game class path and fails fast (exit 2) on a missing entry. */
    private static URL[] toUrls(String classpath) throws IOException {
        List<URL> urls = new ArrayList<>();
        for (String part : classpath.split(Pattern.quote(File.pathSeparator))) {
            if (part.isEmpty()) {
                continue;
            }
            File f = new File(part);
            if (!f.exists()) {
                System.err.println("RefereeHost: game class path entry '" + part
                        + "' does not exist; pass the SDK engine and game class folders or jars");
                System.exit(2);
            }
            urls.add(f.getCanonicalFile().toURI().toURL());
        }
        return urls.toArray(new URL[0]);
    }

    /** The SDK must come from the per-game loader only, and must be found there. */
    private static void checkClasspath(URL[] urls) throws IOException {
        ClassLoader parent = RefereeHost.class.getClassLoader();
        try {
            Class.forName(REFEREE_MAIN, false, parent);
            System.err.println("RefereeHost: the JVM class path already has " + REFEREE_MAIN
                    + "; move the SDK engine to the game class path argument (it must be loaded per game)");
            System.exit(2);
        } catch (ClassNotFoundException expected) {
            // Good: only the game loader will see the SDK.
        }
        try (URLClassLoader probe = new URLClassLoader("referee-probe", urls, parent)) {
            Class.forName(REFEREE_MAIN, false, probe).getMethod("start", InputStream.class, PrintStream.class);
        } catch (ReflectiveOperationException | LinkageError e) {
            System.err.println("RefereeHost: cannot find " + REFEREE_MAIN + ".start(InputStream, PrintStream)"
                    + " on the game class path (" + e + "); add the SDK engine classes to it");
            System.exit(2);
        }
    }

    /** Waits for BOTARENA_GAME, plays it, repeats until stdin ends. */
    private void serve() throws IOException {
        while (true) {
            String header = stdin.readLine();
            if (header == null) {
                return;
            }
            Matcher m = HEADER.matcher(header.trim());
            if (!m.matches()) {
                System.err.println("RefereeHost: dropped a line between games (not a [[COMMAND] n] header): " + header);
                continue;
            }
            String command = m.group(1);
            int lines = Integer.parseInt(m.group(2));
            List<String> body = new ArrayList<>(lines);
            for (int i = 0; i < lines; i++) {
                String line = stdin.readLine();
                if (line == null) {
                    return;
                }
                body.add(line);
            }
            if (command.equals("BOTARENA_GAME")) {
                playGame(body);
            } else if (!command.equals("GET_GAME_INFO")) {
                // GET_GAME_INFO after the last frame is normal for SDK-style runners; others are worth a note.
                System.err.println("RefereeHost: dropped [[" + command + "] " + lines + "] between games");
            }
        }
    }

    private void playGame(List<String> propertyLines) {
        gameCount++;
        Map<String, String> saved = new LinkedHashMap<>();
        Throwable failure = null;
        URLClassLoader loader = null;
        List<String> lingering = new ArrayList<>();
        try {
            for (String line : propertyLines) {
                int eq = line.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("BOTARENA_GAME line '" + line
                            + "' is not key=value; send system properties such as league.level=3");
                }
                String key = line.substring(0, eq).trim();
                saved.putIfAbsent(key, System.getProperty(key));
                System.setProperty(key, line.substring(eq + 1).trim());
            }
            // Unnamed on purpose: stack traces (the SDK's FAIL messages) then read exactly as in a
            // fresh RefereeMain JVM, with no "loader-name//" before each frame.
            loader = new URLClassLoader(gameUrls, RefereeHost.class.getClassLoader());
            failure = runOnGameThread(loader, lingering);
        } catch (Throwable t) {
            failure = t;
        } finally {
            releaseLogging(loader);
            closeQuietly(loader);
            restore(saved);
        }
        if (failure != null) {
            reportFailure(failure);
        }
        if (!lingering.isEmpty()) {
            StringBuilder msg = new StringBuilder("[[BOTARENA_THREADS] ").append(lingering.size()).append("]\n");
            for (String name : lingering) {
                msg.append(name.replace('\n', ' ').replace('\r', ' ')).append('\n');
            }
            stdout.print(msg);
            System.err.println("RefereeHost: game " + gameCount + " left threads running: " + lingering);
        }
        stdout.println(END);
        stdout.flush();
        if (failure instanceof VirtualMachineError) {
            System.exit(3);
        }
    }

    /**
     * Runs RefereeMain.start on a fresh thread whose context loader is the game's, in a thread
     * group of the game's own; when it returns, the game's streams are cut. Returns the failure
     * (or null) and fills {@code lingering} with the game's threads still running after it.
     */
    private Throwable runOnGameThread(URLClassLoader loader, List<String> lingering)
            throws InterruptedException {
        Throwable[] failure = new Throwable[1];
        GameInput input = new GameInput(stdin);
        GameOutput cutOff = new GameOutput(stdout);
        PrintStream output = new PrintStream(cutOff, true, StandardCharsets.UTF_8);
        ThreadGroup group = new ThreadGroup("referee-game-" + gameCount);
        Thread game = new Thread(group, () -> {
            try {
                Class<?> main = Class.forName(REFEREE_MAIN, true, loader);
                markInProduction(main);
                Method start = main.getMethod("start", InputStream.class, PrintStream.class);
                start.invoke(null, input, output);
            } catch (InvocationTargetException e) {
                failure[0] = e.getCause();
            } catch (Throwable t) {
                failure[0] = t;
            } finally {
                output.flush();
            }
        }, "referee-game-" + gameCount);
        game.setContextClassLoader(loader);
        game.start();
        game.join();
        cutOff.cut();
        input.cut();
        lingering.addAll(lingeringThreads(group));
        return failure[0];
    }

    /** The names of the group's threads still alive after a short wait for them to end. */
    private static List<String> lingeringThreads(ThreadGroup group) throws InterruptedException {
        long deadline = System.nanoTime() + LINGER_WAIT_MS * 1_000_000;
        List<String> names = new ArrayList<>();
        Thread[] threads = new Thread[group.activeCount() + 16];
        int count = group.enumerate(threads, true);
        for (int i = 0; i < count; i++) {
            Thread thread = threads[i];
            long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
            thread.join(left);
            if (thread.isAlive()) {
                names.add(thread.getName());
            }
        }
        return names;
    }

    /** RefereeMain.main sets inProduction before start(); do the same when the field exists. */
    private static void markInProduction(Class<?> main) {
        try {
            Field f = main.getDeclaredField("inProduction");
            f.setAccessible(true);
            f.setBoolean(null, true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Older or newer SDKs may lack the field; the referee then runs as under the local runner.
        }
    }

    /** commons-logging (shared in the parent loader) caches a LogFactory per context loader. */
    private static void releaseLogging(ClassLoader loader) {
        if (loader == null) {
            return;
        }
        try {
            Class<?> lf = Class.forName("org.apache.commons.logging.LogFactory", false, RefereeHost.class.getClassLoader());
            lf.getMethod("release", ClassLoader.class).invoke(null, loader);
        } catch (ReflectiveOperationException | LinkageError e) {
            // commons-logging not on the JVM class path: nothing is cached there.
        }
    }

    private static void closeQuietly(URLClassLoader loader) {
        if (loader == null) {
            return;
        }
        try {
            loader.close();
        } catch (IOException e) {
            System.err.println("RefereeHost: could not close the game loader: " + e);
        }
    }

    private static void restore(Map<String, String> saved) {
        for (Map.Entry<String, String> e : saved.entrySet()) {
            if (e.getValue() == null) {
                System.clearProperty(e.getKey());
            } else {
                System.setProperty(e.getKey(), e.getValue());
            }
        }
    }

    /** BOTARENA_FAIL with the stack trace on stdout (framed) and on stderr (for the log). */
    private void reportFailure(Throwable t) {
        StringWriter text = new StringWriter();
        t.printStackTrace(new PrintWriter(text));
        List<String> lines = new ArrayList<>();
        for (String line : text.toString().split("\\R")) {
            if (!line.isBlank()) {
                lines.add(line);
            }
        }
        StringBuilder msg = new StringBuilder("[[BOTARENA_FAIL] ").append(lines.size()).append("]\n");
        for (String line : lines) {
            msg.append(line).append('\n');
        }
        stdout.print(msg);
        stdout.flush();
        System.err.print("RefereeHost: game " + gameCount + " failed: " + text);
    }

    /** Reads stdin line by line, keeping raw bytes until a whole line is there; one line of push-back. */
    static final class LineSource {
        private final InputStream in;
        private byte[] pushedBack;

        LineSource(InputStream in) {
            this.in = in;
        }

        /** The next line's bytes including its '\n' (none at end of stream), or null at end. */
        byte[] readRawLine() throws IOException {
            if (pushedBack != null) {
                byte[] line = pushedBack;
                pushedBack = null;
                return line;
            }
            ByteArrayOutputStream line = new ByteArrayOutputStream(128);
            int b;
            while ((b = in.read()) != -1) {
                line.write(b);
                if (b == '\n') {
                    break;
                }
            }
            return line.size() == 0 ? null : line.toByteArray();
        }

        String readLine() throws IOException {
            byte[] raw = readRawLine();
            if (raw == null) {
                return null;
            }
            String s = new String(raw, StandardCharsets.UTF_8);
            return s.endsWith("\n") ? s.substring(0, s.length() - (s.endsWith("\r\n") ? 2 : 1)) : s;
        }

        void pushBack(byte[] line) {
            pushedBack = line;
        }
    }

    /**
     * One game's view of stdin: hands lines over as the referee asks for them, tracks message
     * boundaries, and ends (without consuming it) at a BOTARENA_GAME header. close() only ends
     * this view; stdin stays open for the next game.
     */
    static final class GameInput extends InputStream {
        private final LineSource source;
        private byte[] line = new byte[0];
        private int pos;
        private int bodyLinesLeft;
        private boolean ended;
        private volatile boolean cut;

        GameInput(LineSource source) {
            this.source = source;
        }

        /** The game is over: whatever reads this stream from now on sees its end. */
        void cut() {
            cut = true;
        }

        private boolean fill() throws IOException {
            if (cut) {
                return false;
            }
            while (pos >= line.length) {
                if (ended) {
                    return false;
                }
                byte[] next = source.readRawLine();
                if (next == null) {
                    ended = true;
                    return false;
                }
                if (bodyLinesLeft > 0) {
                    bodyLinesLeft--;
                } else {
                    Matcher m = HEADER.matcher(new String(next, StandardCharsets.UTF_8).trim());
                    if (m.matches()) {
                        if (m.group(1).equals("BOTARENA_GAME")) {
                            source.pushBack(next); // the driver started the next game: this one is over
                            ended = true;
                            return false;
                        }
                        bodyLinesLeft = Integer.parseInt(m.group(2));
                    }
                }
                line = next;
                pos = 0;
            }
            return true;
        }

        @Override
        public int read() throws IOException {
            return fill() ? line[pos++] & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (!fill()) {
                return -1;
            }
            int n = Math.min(len, line.length - pos); // never block for more than the line at hand
            System.arraycopy(line, pos, b, off, n);
            pos += n;
            return n;
        }

        @Override
        public int available() {
            return line.length - pos;
        }

        @Override
        public void close() {
            ended = true; // the SDK closes its Scanner at the end of a game; stdin itself stays open
            pos = line.length;
        }
    }

    /**
     * One game's view of stdout: writes go through until the game ends, then are dropped (a
     * thread the game left behind cannot write into the next game); close() only flushes, so
     * the referee cannot close stdout.
     */
    static final class GameOutput extends FilterOutputStream {
        private boolean cut;

        GameOutput(OutputStream out) {
            super(out);
        }

        /** Ends the game's output: a write in progress finishes first, later ones are dropped. */
        synchronized void cut() {
            if (!cut) {
                cut = true;
                try {
                    out.flush();
                } catch (IOException e) {
                    System.err.println("RefereeHost: could not flush a game's output: " + e);
                }
            }
        }

        @Override
        public synchronized void write(int b) throws IOException {
            if (!cut) {
                out.write(b);
            }
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            if (!cut) {
                out.write(b, off, len);
            }
        }

        @Override
        public synchronized void flush() throws IOException {
            if (!cut) {
                out.flush();
            }
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
