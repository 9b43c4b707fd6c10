"""A tic-tac-toe bot that misbehaves on purpose: ``bot.py MODE [TURN]``.

It plays the first legal cell until its TURN-th answer (default 2), then does
what MODE says. Stdlib only and no project imports, so it starts fast and
behaves like any user's program.
"""
import os
import signal
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
WHEN = int(sys.argv[2]) if len(sys.argv) > 2 else 2
TOKEN = sys.argv[3] if len(sys.argv) > 3 else "botarena-escapee"   # on the escapees' command line
# An escapee: sleeps forever, ignoring SIGTERM and SIGHUP; its argv[1] is TOKEN.
ESCAPEE = ("import signal, time\nfor s in (signal.SIGTERM, signal.SIGHUP): signal.signal(s, signal.SIG_IGN)\n"
           "while True: time.sleep(60)")
out = sys.stdout.buffer


def read_turn():
    first = sys.stdin.readline()
    if not first:
        sys.exit(0)
    count = int(sys.stdin.readline())
    return [sys.stdin.readline().strip() for _ in range(count)]


def answer(text):
    out.write(text + b"\n" if isinstance(text, bytes) else text.encode() + b"\n")
    out.flush()


def sleep_forever():
    while True:
        time.sleep(60)


def spawn(kind):
    """A child that outlives the bot: plain, in a session of its own, or a double-forked daemon."""
    if os.fork():
        return
    if kind in ("setsid", "daemon"):
        os.setsid()
    if kind == "daemon":
        if os.fork():
            os._exit(0)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    sleep_forever()


def escape(kind):
    """A child that leaves the bot's process group and environment behind: ``setpgid`` (it stays
    the bot's child until the bot exits), or ``setsid`` and a double fork whose middle child the
    bot reaps (it is orphaned at once). Either way it execs with an empty environment."""
    child = os.fork()
    if child:
        if kind == "daemon":
            os.waitpid(child, 0)
        return
    if kind == "group":
        os.setpgid(0, 0)
    else:
        os.setsid()
        if os.fork():
            os._exit(0)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.execve(sys.executable, [sys.executable, "-c", ESCAPEE, TOKEN], {})


def spy():
    """Find the opponent through /proc (the harness's other children) and write junk into its
    stdout (its answer pipe); report as [PDATA] how many processes it sees and wrote into."""
    visible = [name for name in os.listdir("/proc") if name.isdigit() and int(name) != os.getpid()]
    siblings = []
    parent = os.getppid()
    try:
        for task in os.listdir("/proc/%d/task" % parent):
            with open("/proc/%d/task/%s/children" % (parent, task)) as handle:
                siblings += [int(word) for word in handle.read().split()]
    except OSError:
        pass
    wrote = 0
    for pid in siblings:
        if pid == os.getpid():
            continue
        try:
            fd = os.open("/proc/%d/fd/1" % pid, os.O_WRONLY | os.O_NONBLOCK)
            os.write(fd, b"SPY\n")
            os.close(fd)
            wrote += 1
        except OSError:
            pass
    sys.stderr.write("[PDATA] visible = %d\n[PDATA] wrote = %d\n" % (len(visible), wrote))
    sys.stderr.flush()


def try_network():
    """Connect to 127.0.0.1:TOKEN (a port the test listens on); report as [PDATA] network."""
    import socket
    try:
        socket.create_connection(("127.0.0.1", int(TOKEN)), timeout=2).close()
        result = "open"
    except OSError as error:
        result = "refused: %s" % error.strerror
    sys.stderr.write("[PDATA] network = %s\n" % result)
    sys.stderr.flush()


def misbehave(cells):
    if MODE == "exception":
        raise RuntimeError("bot bug at turn %d" % WHEN)
    if MODE == "exit":
        sys.exit(3)
    if MODE == "signal":
        os.kill(os.getpid(), signal.SIGSEGV)
    if MODE in ("hang", "hang_ignore_term"):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        sleep_forever()
    if MODE == "late":
        time.sleep(1.0)
        answer(cells[0])
        return
    if MODE == "partial":
        out.write(cells[0][:2].encode())
        out.flush()
        sleep_forever()
    if MODE == "multi":
        answer(cells[0] + "\n" + cells[-1])
        return
    if MODE == "empty":
        answer("")
        return
    if MODE == "huge":
        answer("7" * 1_000_000)
        return
    if MODE == "stream":
        while True:
            out.write(b"x" * 65536)
            out.flush()
    if MODE == "not_utf8":
        answer(b"\xff\xfe 1")
        return
    if MODE == "wrong_kind":
        answer("MOVE 1 1")
        return
    if MODE == "close_stdout":
        sys.stdout.close()
        os.close(1)
        sleep_forever()
    if MODE == "exit_after_answer":
        answer(cells[0])
        os._exit(0)
    if MODE == "exit_after_answer_child":        # a child keeps stdout open: no end of file
        spawn("plain")
        answer(cells[0])
        os._exit(0)
    if MODE == "eat_memory":
        hog = bytearray(4 << 30)
        answer(cells[hog[0]])
    if MODE == "eat_shared_memory":            # not private data: only the RSS sampling sees it
        import mmap
        hog = mmap.mmap(-1, 4 << 30)
        for offset in range(0, len(hog), 4096):
            hog[offset] = 1
        sleep_forever()
    if MODE == "spy":
        spy()
        answer(cells[0])
        return
    if MODE == "network":
        try_network()
        answer(cells[0])
        return
    if MODE == "spin":                          # ignores SIGTERM, SIGHUP and end of input
        for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(number, signal.SIG_IGN)
        while True:
            pass
    if MODE == "children_then_crash":
        for kind in ("plain", "setsid", "daemon"):
            spawn(kind)
        raise SystemExit(5)
    raise SystemExit("unknown mode " + MODE)


def main():
    if MODE == "crash_start":
        raise ImportError("no module named 'numpyy'")
    if MODE == "children":
        for kind in ("plain", "setsid", "daemon"):
            spawn(kind)
    if MODE == "escape":
        for kind in ("group", "daemon"):
            escape(kind)
    turn = 0
    while True:
        cells = read_turn()
        turn += 1
        if MODE == "flood_stderr":
            sys.stderr.write(("debug " * 20 + "\n") * 3000)       # ~370 KB per turn
            sys.stderr.flush()
        if turn == WHEN and MODE not in ("good", "children", "flood_stderr", "escape"):
            misbehave(cells)
            continue
        answer(cells[0])


main()
