"""lnrnn/training/memory.py, twentieth pass: the estimate of a skip-connected stack (its head reads every layer)
and of a two-layer bidirectional one counted by hand, a head on every step against one on the last step, a
--tbptt past the sequence counted as the sequence; the memory available when /proc/meminfo's line is not a number,
when the system has no SC_AVPHYS_PAGES, and when a cgroup's usage file is not a number: the next source, or nothing,
and never a traceback."""
import pytest

from lnrnn.model import cells
from lnrnn.training import memory
from test_values_memory import GB, MEMINFO, V2, _cfg, _files

# A one-layer or two-layer LSTM (11 H saved per step and row), H 10 (G 40), I 3, T 20, B 4, eval batch 6, a head
# of 5 outputs; float32 and Adam: parameters x 5 (params, grads, the saving copy, m, v), activations x 1.25 x 4.
T, I, OUT = 20, 3, 5


def test_a_skip_connected_heads_reads_every_layer():
    """Layer 0: Wx (3,40) + Wh (10,40) + b (40) = 560; layer 1 reads x and layer 0's output, 13 inputs: 13 x 40 +
    400 + 40 = 960; the head reads both layers' 20 outputs: 20 x 5 + 5 = 105."""
    parts = memory.estimate(_cfg(layers=2, skip=True), cells.get("lstm"), T, I, OUT, False)
    assert parts["parameters"] == 4 * 5 * (560 + 960 + 105)
    plain = memory.estimate(_cfg(layers=2, skip=False), cells.get("lstm"), T, I, OUT, False)
    assert plain["parameters"] == 4 * 5 * (560 + (10 * 40 + 400 + 40) + (10 * 5 + 5))


def test_two_bidirectional_layers_by_hand():
    """Per step and row 2 directions x 2 layers x 11 H = 440; the backward's working set G + H + max(I, H)."""
    parts = memory.estimate(_cfg(layers=2, bidirectional=True), cells.get("lstm"), T, I, OUT, False)
    train = 20 * 4 * 440 + 20 * 4 * (40 + 10 + 10) + 20 * 4 * 3 + 3 * 4 * 5
    evaluation = 20 * 6 * 440 + 20 * 6 * 3 + 2 * 6 * 5
    assert parts["activations"] == 5 * train and parts["evaluation"] == 5 * evaluation


def test_a_head_on_every_step_counts_its_outputs_at_every_step():
    last = memory.estimate(_cfg(), cells.get("lstm"), T, I, OUT, False)
    every = memory.estimate(_cfg(), cells.get("lstm"), T, I, OUT, True)
    assert last["activations"] == 5 * (20 * 4 * 110 + 20 * 4 * 60 + 20 * 4 * 3 + 3 * 4 * 5)
    assert every["activations"] == 5 * (20 * 4 * 110 + 20 * 4 * 60 + 20 * 4 * 3 + 3 * 4 * 5 * 20)
    assert last["evaluation"] == 5 * (20 * 6 * 110 + 20 * 6 * 3 + 2 * 6 * 5)
    assert every["evaluation"] == 5 * (20 * 6 * 110 + 20 * 6 * 3 + 2 * 6 * 5 * 20)


@pytest.mark.parametrize("tbptt", [20, 21, 1000])
def test_a_tbptt_chunk_at_or_past_the_sequence_keeps_the_sequence(tbptt):
    whole = memory.estimate(_cfg(), cells.get("lstm"), T, I, OUT, False)
    assert memory.estimate(_cfg(tbptt=tbptt), cells.get("lstm"), T, I, OUT, False) == whole


@pytest.mark.parametrize("line", ["MemAvailable:    lots kB\n", "MemAvailable:\n"])
def test_a_meminfo_line_that_is_no_number_falls_back_to_free_pages(monkeypatch, line):
    _files(monkeypatch, {"/proc/meminfo": "MemTotal: 16000000 kB\n" + line}, pages=1000)
    assert memory.available_bytes() == 1000 * 4096


def test_no_sysconf_name_leaves_nothing_to_compare_with(monkeypatch):
    _files(monkeypatch, {})

    def sysconf(name):
        raise ValueError("unrecognized configuration name")

    monkeypatch.setattr(memory.os, "sysconf", sysconf)
    assert memory.available_bytes() is None
    assert memory.check_fits({"parameters": 10 * GB, "activations": 0, "evaluation": 0, "data": 0}) == 10 * GB


def test_a_cgroup_usage_that_is_no_number_is_passed_over(monkeypatch):
    _files(monkeypatch, {"/proc/meminfo": MEMINFO, V2[0]: str(GB) + "\n", V2[1]: "n/a\n"})
    assert memory.available_bytes() == 2000000 * 1024
