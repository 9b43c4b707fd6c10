"""Standard output that cannot be written (a full disk, ``> /dev/full``, a closed pipe): one line,
not a traceback, both when a command prints and when its last lines are flushed at exit."""
from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator


class OutputFailed(Exception):
    """Writing standard output failed with ``error`` (told apart from any other OSError)."""

    def __init__(self, error: OSError):
        super().__init__(str(error))
        self.error = error


class _GuardedOutput:
    """``sys.stdout`` whose write and flush errors are OutputFailed; the rest is the stream's.
    Its ``buffer`` (bytes written as they are: a bundle) is guarded the same way."""

    def __init__(self, stream):
        self._stream = stream

    @property
    def buffer(self) -> _GuardedOutput:
        return _GuardedOutput(self._stream.buffer)

    def write(self, text):
        try:
            return self._stream.write(text)
        except OSError as error:
            raise OutputFailed(error) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as error:
            raise OutputFailed(error) from None

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


@contextlib.contextmanager
def guarded_stdout() -> Iterator[None]:
    """Within: sys.stdout raises OutputFailed; flushed on the way out (an exit by argparse's
    --help too), where a failure can still be reported, rather than at the interpreter's exit."""
    stream = sys.stdout
    sys.stdout = _GuardedOutput(stream)
    try:
        yield
    finally:
        try:
            sys.stdout.flush()
        finally:
            sys.stdout = stream


def silence_stdout() -> None:
    """Point standard output's descriptor at /dev/null: what is still buffered in ``sys.stdout``
    (block-buffered when it is not a terminal) then goes there at the interpreter's exit, instead
    of failing a second time as "Exception ignored ... OSError" with exit status 120."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def output_failure(failed: OutputFailed) -> int:
    """Exit status, after one line on stderr; a reader that went away (``| head``) is no error."""
    silence_stdout()
    if isinstance(failed.error, BrokenPipeError):
        return 0
    print(f"botarena: cannot write the output: {failed.error.strerror or failed.error}",
          file=sys.stderr)
    return 1
