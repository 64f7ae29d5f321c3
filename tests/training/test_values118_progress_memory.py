"""Progress lines and the memory plan against their definitions. Progress, on a clock set by hand: updates
add up (3 + 4 + 5 of 20), the rate is the samples done over the seconds since the start, the ETA is what is
left at that rate, and counts past powers of ten print in full. The memory plan: _prod is a shape's element
count, a layer's parameters are counted from its shapes, and a refusal suggests only the parts that hold at
least a tenth of the peak (the --steps hint comes first when asked for)."""
import io
import re

import pytest

from lnrnn.errors import UserError
from lnrnn.model import cells
from lnrnn.training import memory, progress
from lnrnn.training.runconfig import TrainConfig
from test_values95_progress import clock  # noqa: F401  (a fixture: perf_counter on a clock set by hand)


def test_updates_add_up_and_rate_and_eta_follow(clock):
    p = progress.Progress(20, label="train", stream=io.StringIO(), unit="samples")
    done = 0
    for n in (3, 4, 5):
        clock.now += 2.0
        p.update(n)
        done += n
    assert p.done == done == 12
    line = p.line()
    assert " 12/20 " in line
    rate = 12 / 6.0
    assert f"{rate:,.0f} samples/s" in line
    assert line.endswith(f"ETA {progress.format_seconds((20 - 12) / rate)}")
    assert line.endswith("ETA 0:04")


def test_counts_past_powers_of_ten(clock):
    p = progress.Progress(1000, label="x", stream=io.StringIO(), done=990)
    clock.now += 1.0
    for _ in range(10):
        p.update(1)
    line = p.line()
    assert " 1000/1000 " in line
    assert "10 samples/s" in line                # only the 10 done since the bar started
    assert re.search(r"\b0:01$", line)           # done: the elapsed time, not an ETA


def test_prod_is_the_element_count():
    assert memory._prod((3, 4, 5)) == 60
    assert memory._prod((7,)) == 7
    assert memory._prod(()) == 1


def test_parameters_counted_from_the_shapes_for_two_layers():
    H, I, OUT, T = 3, 2, 4, 5
    cfg = TrainConfig(cell="rnn", hidden=H, layers=2, batch_size=2, eval_batch_size=2, skip=False, optimizer="sgd")
    # rnn: Wx (in,H), Wh (H,H), b (H) per layer, no statistics; the head H x OUT + OUT
    by_hand = (I * H + H * H + H) + (H * H + H * H + H) + H * OUT + OUT
    parts = memory.estimate(cfg, cells.get("rnn"), T, I, OUT, False)
    assert parts["parameters"] == 4 * by_hand * (3 + 1)          # float32; sgd keeps one momentum slot


def _refusal(parts, steps_option=False):
    with pytest.raises(UserError) as e:
        memory.check_fits(parts, available=1, steps_option=steps_option)
    return str(e.value)


def test_refusal_hints_only_the_parts_holding_a_tenth_of_the_peak(monkeypatch):
    monkeypatch.delenv(memory.SKIP_ENV, raising=False)
    parts = {"parameters": 1000, "activations": 5000, "evaluation": 100, "data": 50}
    peak = 1000 + 5000 + 50
    big = [k for k in ("activations", "parameters", "data") if parts[k] >= 0.1 * peak]
    assert big == ["activations", "parameters"]
    text = _refusal(parts)
    assert f"try {' or '.join(memory.WHAT[k][1] for k in big)} (or set" in text
    assert "--steps" not in text
    text = _refusal(parts, steps_option=True)
    assert "try a smaller --steps or " + " or ".join(memory.WHAT[k][1] for k in big) + " (or set" in text
