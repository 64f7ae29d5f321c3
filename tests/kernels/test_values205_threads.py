"""lnrnn/kernels/cpu/threads.py on lines earlier value tests leave alone: dry_run refusing every mode but
compile and skip word for word (None too), a dry run compiling the time loop for the types of (0, 0, n) and its
arguments in mode compile and compiling nothing in mode skip, and run_chunks against hand tables of chunk rows
at awkward batch sizes (B = 1, 2, 3, 7, 65) and thread counts (1, 2, 3, 4, 8), each chunk once, chunk 0 on the
calling thread and the chunks in contiguous runs, each on one thread, as its docstring promises."""
import threading

import numba
import numpy as np
import pytest

from lnrnn.kernels.cpu import threads


@pytest.mark.parametrize("mode", [None, "run", "Compile", ""])
def test_dry_run_refuses_other_modes_word_for_word(mode):
    with pytest.raises(ValueError) as e:
        with threads.dry_run(mode):
            pass
    assert str(e.value) == f"dry_run mode is 'compile' or 'skip', not {mode!r}"


class Loop:
    """Stands in for a compiled time loop: records what it is compiled for and whether it runs."""

    def __init__(self):
        self.compiled, self.ran = [], []

    def compile(self, sig):
        self.compiled.append(sig)

    def __call__(self, *args):
        self.ran.append(args)


def test_dry_run_compiles_for_the_arguments_types_only_in_compile_mode():
    x = np.zeros((3, 2), dtype=np.float32)
    loop = Loop()
    with threads.dry_run("skip"):
        threads.run_chunks(loop, 7, 4, x, 2.5)
    assert loop.compiled == [] and loop.ran == []
    with threads.dry_run("compile"):
        threads.run_chunks(loop, 7, 4, x, 2.5)
    want = (numba.typeof(0), numba.typeof(0), numba.typeof(7), numba.typeof(x), numba.typeof(2.5))
    assert loop.compiled == [want] and loop.ran == []


# chunk q of n rows in c chunks owns rows [floor(q n / c), floor((q + 1) n / c)), c clamped to [1, n]: by hand
ROWS = {(1, 4): [(0, 1)],
        (2, 8): [(0, 1), (1, 2)],
        (3, 2): [(0, 1), (1, 3)],
        (7, 3): [(0, 2), (2, 4), (4, 7)],
        (7, 7): [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7)],
        (65, 4): [(0, 16), (16, 32), (32, 48), (48, 65)],
        (65, 0): [(0, 65)]}


@pytest.mark.parametrize("nthreads", [1, 2, 3, 4, 8])
def test_run_chunks_rows_and_threads_by_hand(nthreads, monkeypatch):
    monkeypatch.setattr(threads.numba, "get_num_threads", lambda: nthreads)
    me = threading.get_ident()
    for (n, c), want in ROWS.items():
        seen, lock = [], threading.Lock()

        def rows(q, lo, hi, a, b):
            assert (a, b) == ("a", 2)
            with lock:
                seen.append((q, lo, hi, threading.get_ident()))

        threads.run_chunks(rows, n, c, "a", 2)
        assert sorted((q, lo, hi) for q, lo, hi, _ in seen) == [(q,) + r for q, r in enumerate(want)]
        on = {q: t for q, _, _, t in seen}
        assert on[0] == me                                   # chunk 0's run is the calling thread's
        used = len(set(on.values()))
        assert used <= min(nthreads, len(want))
        # the chunks go in at most min(nthreads, chunks) contiguous runs, each on one thread: along q the thread
        # changes at least used - 1 times (each thread's first run) and at most once per run boundary (a pool
        # thread that ends its run early may take a later run too, so the thread can come back)
        order = [on[q] for q in range(len(want))]
        changes = sum(a != b for a, b in zip(order, order[1:]))
        assert used - 1 <= changes <= min(nthreads, len(want)) - 1
