"""Sizes a typo gives to the commands that allocate by an option, refused in one sentence before any work
(lnrnn/training/memory.py: refuse_beyond; lnrnn/model/beam.py: search_bytes). Before, `lnrnn read --beam
99999999999` ended in a SystemError out of the compiled search (2**70: an int64 overflow), `lnrnn sample
--no-cap --steps 99999999999` and `--count 99999999999` in a NumPy allocation traceback, and `lnrnn gradcheck`
at a huge --steps, --batch, --input or --hidden in one, at a huge --layers in a hang.

Each bound is checked at its edge: with the available memory set to the bound's bytes, written out here by
its definition (the longest normalized line's trie and beam for a search of the head's classes; the points
and, for a writer, the window's weights on the longest row's characters, the prime's included; gradcheck's
layers' weights and outputs), the work runs; one byte less, the sentence, word for word, and nothing has run.
The commands at 2**70 give one Error line, each within seconds."""
import numpy as np
import pytest

import lnrnn
from lnrnn.errors import UserError
from lnrnn.model.beam import search_bytes
from lnrnn.sample import sample_strokes
from lnrnn.training import memory
from test_cli import assert_clean_error, assert_ok, invoke
from test_values133_sampler import codes, text_model
from test_values87_sampler import free_model
from test_values99_sample_cli import free_run, text_run
from test_values_api_read import ALPHABET, reader  # noqa: F401 (the fixture)
from test_values417_memory_extremes import within

HUGE = 2**70


def available(monkeypatch, n):
    monkeypatch.delenv(memory.SKIP_ENV, raising=False)
    monkeypatch.setattr(memory, "available_bytes", lambda: n)


# ---------------------------------------------------------------- refuse_beyond and its numbers

def test_refuse_beyond_refuses_only_past_the_available_bytes(monkeypatch):
    monkeypatch.delenv(memory.SKIP_ENV, raising=False)
    G = 1 << 30
    with pytest.raises(UserError) as e:
        memory.refuse_beyond(3 * G // 2 + 1, "the thing", "less of it", available=G)
    assert str(e.value) == "the thing would take at least 1.5 GB of memory but only 1.0 GB is available; try less of it."
    assert memory.refuse_beyond(G, "the thing", "less", available=G) is None          # exactly what is there
    with pytest.raises(UserError):
        memory.refuse_beyond(G + 1, "the thing", "less", available=G)
    available(monkeypatch, None)                                                       # nothing says: no refusal
    assert memory.refuse_beyond(10**30, "the thing", "less") is None
    available(monkeypatch, 10)
    with pytest.raises(UserError, match="at least 0 KB of memory but only 0 KB is available"):
        memory.refuse_beyond(11, "the thing", "less")
    monkeypatch.setenv(memory.SKIP_ENV, "1")
    assert memory.refuse_beyond(10**30, "the thing", "less") is None


def test_format_bytes_groups_the_thousands_of_terabytes():
    assert memory.format_bytes(5000 << 40) == "5,000.0 TB"
    assert memory.format_bytes(3 << 39) == "1.5 TB"
    assert memory.format_bytes(5 << 30) == "5.0 GB"


def test_search_bytes_is_the_trie_and_the_beam_of_the_width_the_search_keeps():
    # 8 bytes x (the trie 6 x (1 + T W) and the beam's 11 W and W x C), W capped at the prefixes T steps spell
    assert search_bytes(5, 4, 3) == 8 * (6 * (1 + 5 * 3) + 3 * (11 + 4))
    assert search_bytes(1, 3, 100) == 8 * (6 * (1 + 1 * 3) + 3 * (11 + 3))       # 1 + 2 prefixes: W = 3
    assert search_bytes(2, 3, 100) == 8 * (6 * (1 + 2 * 7) + 7 * (11 + 3))       # 1 + 2 + 4: W = 7
    assert search_bytes(2, 1, 5) == 8 * (6 * (1 + 2 * 1) + 1 * (11 + 1))         # only the blank: W = 1
    assert search_bytes(40, 80, HUGE) == 8 * (6 * (1 + 40 * HUGE) + HUGE * (11 + 80))


# ---------------------------------------------------------------- lnrnn.read with a beam

def test_a_beam_search_is_refused_by_the_longest_normalized_lines_search(reader, monkeypatch):  # noqa: F811
    folder, _, lines = reader
    glitch = lines[0].copy()
    glitch[3, :2] = [9000.0, 0.0]                       # a glitch step: dropped before reading, 7 -> 6 steps
    lines = [lines[1], glitch, lines[4]]                 # 3, 6 (normalized), 2 steps
    C = len(ALPHABET) + 1
    need = search_bytes(6, C, 4)
    want, best = lnrnn.read(folder, lines, beam=4), lnrnn.read(folder, lines, beam=1)
    available(monkeypatch, need)
    assert lnrnn.read(folder, lines, beam=4) == want
    available(monkeypatch, need - 1)
    run = lnrnn.load_run(folder)
    monkeypatch.setattr(run.model, "_infer_chunks", lambda *a, **k: pytest.fail("a line was read before the check"))
    with pytest.raises(UserError) as e:
        lnrnn.read(run, lines, beam=4)
    assert str(e.value) == (f"a beam of 4 prefixes over a line of 6 steps would take at least "
                            f"{memory.format_bytes(need)} of memory but only {memory.format_bytes(need - 1)} is "
                            "available; try a smaller beam (1: the best path).")
    need2 = search_bytes(6, C, 2)                       # the narrowest beam is a search too
    available(monkeypatch, need2 - 1)
    with pytest.raises(UserError, match="^a beam of 2 prefixes over a line of 6 steps would take"):
        lnrnn.read(run, lines, beam=2)
    available(monkeypatch, 0)
    assert lnrnn.read(folder, lines, beam=1) == best                                 # the best path: no search


def test_read_beam_of_a_typos_size_is_one_error_line(reader, tmp_path):  # noqa: F811
    folder, _, lines = reader
    line = np.tile(lines[0], (6, 1))                     # 42 steps: far more prefixes than either beam keeps
    np.save(tmp_path / "line.npy", line)
    for beam in (HUGE, 99999999999):
        with within(30):
            r = invoke("read", "--checkpoint", folder, "--input", tmp_path / "line.npy", "--beam", beam, "-q")
        assert_clean_error(r, f"a beam of {beam:,} prefixes over a line of 42 steps would take at least")


# ---------------------------------------------------------------- sampling

def test_free_samples_are_refused_by_their_points(monkeypatch):
    m = free_model()
    need = 8 * 2 * 7 * 3                                # (count, steps, 3) float64
    available(monkeypatch, need)
    assert [s.shape for s in sample_strokes(m, 7, count=2)] == [(7, 3), (7, 3)]
    available(monkeypatch, need - 1)
    monkeypatch.setattr(m, "step", lambda *a, **k: pytest.fail("a step ran before the check"))
    with pytest.raises(UserError) as e:
        sample_strokes(m, 7, count=2)
    assert str(e.value) == (f"2 samples of up to 7 points would take at least {memory.format_bytes(need)} of memory "
                            f"but only {memory.format_bytes(need - 1)} is available; try fewer or shorter samples.")
    available(monkeypatch, 8 * 1 * 7 * 3 - 1)
    with pytest.raises(UserError, match="^1 sample of up to 7 points would take"):
        sample_strokes(m, 7, count=1)


def test_written_samples_count_the_window_weights_of_the_longest_row_with_the_prime(monkeypatch):
    m = text_model()
    lines = codes("ab", "cdeab")                          # U = 2 + the longest row, 5 characters
    prime = (np.array([[0.1, 0.2, 0.0], [0.3, -0.1, 1.0]]), codes("e ")[0])
    need = 8 * 2 * 6 * (3 + 2 + 5)
    available(monkeypatch, need)
    assert len(sample_strokes(m, 6, count=2, text=lines, prime=prime)) == 2
    available(monkeypatch, 8 * 2 * 6 * (3 + 5))         # without the prime's two codes: fits
    assert len(sample_strokes(m, 6, count=2, text=lines)) == 2
    with pytest.raises(UserError):
        sample_strokes(m, 6, count=2, text=lines, prime=prime)
    available(monkeypatch, need - 1)
    monkeypatch.setattr(m, "step", lambda *a, **k: pytest.fail("a step ran before the check"))
    with pytest.raises(UserError) as e:
        sample_strokes(m, 6, count=2, text=lines, prime=prime)
    assert str(e.value) == ("2 samples of up to 6 points and the window's weights on their characters would take at "
                            f"least {memory.format_bytes(need)} of memory but only {memory.format_bytes(need - 1)} is "
                            "available; try fewer or shorter samples.")
    available(monkeypatch, 8 * 2 * 6 * (3 + 5) - 1)
    with pytest.raises(UserError):
        sample_strokes(m, 6, count=2, text=lines)


def test_sample_at_a_typos_size_is_one_error_line(tmp_path):
    free, text = free_run(tmp_path / "free"), text_run(tmp_path / "text")
    cases = [(free, ["--count", HUGE, "--steps", 10], f"{HUGE:,} samples of up to 10 points would take"),
             (free, ["--count", 99999999999, "--steps", 10], "99,999,999,999 samples of up to 10 points would take"),
             (free, ["--no-cap", "--steps", HUGE], f"4 samples of up to {HUGE:,} points would take"),
             (text, ["--no-cap", "--steps", 99999999999, "--text", "ab"],
              "1 sample of up to 99,999,999,999 points and the window's weights on their characters would take")]
    for run, args, words in cases:
        with within(30):
            r = invoke("sample", "--checkpoint", run, "--out", tmp_path / "s.svg", "-q", *args)
        assert_clean_error(r, words)
        assert not (tmp_path / "s.svg").exists()


# ---------------------------------------------------------------- gradcheck

def test_gradcheck_is_refused_by_its_layers_weights_and_outputs(monkeypatch):
    args = ["gradcheck", "--cell", "rnn", "--steps", 2, "--batch", 2, "--input", 3, "--hidden", 1, "--layers", 2, "-q"]
    need = 8 * 2 * (1 * (3 + 1) + 2 * 2 * (2 + 4) * 1)   # layers x (H (I + H) + 2T (B + 4) H) float64
    available(monkeypatch, need)
    assert_ok(invoke(*args))
    available(monkeypatch, need - 1)
    r = invoke(*args)
    assert_clean_error(r, f"gradcheck at --steps 2 --batch 2 --input 3 --hidden 1 --layers 2 would take at least "
                          f"{memory.format_bytes(need)} of memory")
    assert r.stdout == ""                                # no check ran


@pytest.mark.parametrize("option", ["--steps", "--batch", "--input", "--hidden", "--layers"])
def test_gradcheck_at_a_typos_size_is_one_error_line(option):
    with within(30):
        r = invoke("gradcheck", "--cell", "lstm", "-q", option, HUGE)
    assert_clean_error(r, f"{option} {HUGE:,}")
    assert "would take at least" in r.stderr and "try the defaults" in r.stderr
