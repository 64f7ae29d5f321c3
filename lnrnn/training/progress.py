"""A small progress bar on stderr: the head's metrics (loss, accuracy, ...), samples/s, ETA. No third-party dependency.

On a terminal the bar redraws in place (at most every ``min_interval`` seconds); on anything else
(log files, nohup, CI, Slurm, CliRunner) it writes the bar as a plain line every ``log_every`` seconds
(LOG_EVERY_S) and the final line of each bar. ``quiet`` silences it entirely.
"""
import sys
import threading
import time

from lnrnn.model.heads import METRIC_INFO

LOG_EVERY_S = 30.0  # seconds between progress lines when stderr is not a terminal
COMPILE_NOTE_AFTER_S = 2.0  # say that kernels are compiling when the first update is still compiling by then


def format_seconds(s):
    s = int(round(max(s, 0)))
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def compile_note(clock, stream=None, quiet=False):
    """A started timer that says, COMPILE_NOTE_AFTER_S seconds on, that kernels are compiling when ``clock``
    (``lnrnn.compiling.CompileClock``) still counts a compilation then; the trainer cancels it after its first
    update."""
    def note():
        if clock.busy and not quiet:
            out = stream if stream is not None else sys.stderr
            out.write("Compiling kernels (once per install; later runs load them from Numba's cache)...\n")
            out.flush()
    timer = threading.Timer(COMPILE_NOTE_AFTER_S, note)
    timer.daemon = True
    timer.start()
    return timer


class Progress:
    """progress = Progress(total_samples, label); progress.update(n, loss=..., acc=...); progress.close().
    ``unit`` names what is counted in the rate (samples/s; points/s for sampling). A total of None is unknown (a
    download without its size): the count alone beside a full bar, no ETA. The bar stays ``width`` wide past the
    total."""

    def __init__(self, total, label="", stream=None, quiet=False, width=24, min_interval=0.2, done=0, log_every=None,
                 unit="samples"):
        self.total, self.label, self.quiet, self.width, self.unit = total, label, quiet, width, unit
        self.stream = stream if stream is not None else sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.min_interval = min_interval
        self.log_every = LOG_EVERY_S if log_every is None else log_every
        self.done, self.start_done = done, done
        self.t0 = time.perf_counter()
        self.last_draw = 0.0 if self.tty else self.t0  # a plain line first after log_every seconds
        self.fields = {}

    def rate(self):
        dt = time.perf_counter() - self.t0
        return (self.done - self.start_done) / dt if dt > 0 else 0.0

    def line(self):
        known = self.total is not None
        frac = min(self.done / self.total, 1.0) if known and self.total else 1.0
        fill = int(round(frac * self.width))
        bar = "#" * fill + "." * (self.width - fill)
        count = f"{self.done}/{self.total}" if known else f"{self.done}"
        parts = [f"{self.label} [{bar}] {count}"]
        for name, v in self.fields.items():  # the head's metrics: loss, acc, cer (fractions, shown in %), ...
            parts.append(f"{name} {100 * v:.1f}%" if METRIC_INFO.get(name, (name, False))[1] else f"{name} {v:.4f}")
        rate = self.rate()
        parts.append(f"{rate:,.0f} {self.unit}/s")
        if known and self.done < self.total and rate > 0:
            parts.append(f"ETA {format_seconds((self.total - self.done) / rate)}")
        else:
            parts.append(f"{format_seconds(time.perf_counter() - self.t0)}")
        return " ".join(p for p in parts if p)

    def update(self, n, **fields):
        self.done += n
        self.fields.update(fields)
        if self.quiet:
            return
        now = time.perf_counter()
        if not self.tty:
            if now - self.last_draw >= self.log_every and (self.total is None or self.done < self.total):
                self.last_draw = now
                self.stream.write(self.line() + "\n")
                self.stream.flush()
            return
        if now - self.last_draw >= self.min_interval or (self.total is not None and self.done >= self.total):
            self.last_draw = now
            self.stream.write("\r" + self.line() + "\033[K")
            self.stream.flush()

    def note(self, text):
        """A line of its own (an evaluation's result) between the bar's updates; the bar goes on below it."""
        if self.quiet:
            return
        self.stream.write(("\r" + text + "\033[K" if self.tty else text) + "\n")
        self.stream.flush()

    def close(self, suffix=""):
        """Final line of the bar, with ``suffix`` (e.g. validation results) appended."""
        if self.quiet:
            return
        extra = " " + suffix if suffix else ""
        self.stream.write(("\r" if self.tty else "") + self.line() + extra + ("\033[K" if self.tty else "") + "\n")
        self.stream.flush()
