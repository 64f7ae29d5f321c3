"""Progress lines and the memory plan against hand computations. Progress on a clock set by hand and a plain
(non-terminal) stream: a line at 10 s, none at 15 s (5 s after the last line, log_every 10), the next at 20 s, and
none once the total is reached; the unit given names the rate. Memory: the activations part of a two-layer LSTM
(T 7, I 3, H 5, 3 training rows, 11 evaluation rows, 4 outputs per step) written out from the module's definition
with and without --tbptt; a refusal word for word, its parts largest first, the --steps hint first only when
asked, with nothing written."""
import io
import os

import pytest

from lnrnn.errors import UserError
from lnrnn.model import cells
from lnrnn.training import memory, progress
from lnrnn.training.runconfig import TrainConfig
from test_values95_progress import clock  # noqa: F401  (a fixture: perf_counter on a clock set by hand)


def test_plain_lines_every_log_every_seconds_from_the_last_line(clock):
    out = io.StringIO()
    p = progress.Progress(100, label="train", stream=out, log_every=10.0, unit="points")
    written = []
    for t in (10.0, 15.0, 20.0, 25.0, 29.0, 31.0):
        clock.now = p.t0 + t
        p.update(7)
        written.append(out.getvalue().count("\n"))
    assert written == [1, 1, 2, 2, 2, 3]         # at 10, 20 and 31 s
    last = out.getvalue().splitlines()[-1]
    assert " 42/100 " in last and f"{42 / 31.0:,.0f} points/s" in last and "samples/s" not in out.getvalue()
    clock.now = p.t0 + 45.0
    p.update(58)                                 # the total reached: no plain line, close writes it
    assert out.getvalue().count("\n") == 3


T, I, H, L, B, BE, OUT = 7, 3, 5, 2, 3, 11, 4


@pytest.mark.parametrize("tbptt,dtype", [(None, "float32"), (4, "float64")], ids=["full", "tbptt4"])
def test_activations_of_a_two_layer_lstm_by_hand(tbptt, dtype):
    cfg = TrainConfig(cell="lstm", hidden=H, layers=L, batch_size=B, eval_batch_size=BE, skip=False,
                      tbptt=tbptt, dtype=dtype)
    a, c = 11, 0                                  # the LSTM's row kept per step: 11 H wide, no constant
    assert cells.get("lstm").activations == (a, c)
    isz = 8 if dtype == "float64" else 4
    Tc = tbptt or T
    kept = Tc * B * L * (a * H + c)               # forward's saved rows, both layers
    work = Tc * B * (4 * H + H + max(I, H))       # backward's dL/dpre (4H), dL/dy (H), dL/dx (max(I, H))
    x = T * B * I
    head = 3 * B * OUT * T                        # the head's outputs on every step
    want = int(memory.HEADROOM * isz * (kept + work + x + head))
    assert want == {None: int(1.25 * 4 * (2310 + 630 + 63 + 252)), 4: int(1.25 * 8 * (1320 + 360 + 63 + 252))}[tbptt]
    parts = memory.estimate(cfg, cells.get("lstm"), T, I, OUT, True)
    assert parts["activations"] == want
    assert parts["evaluation"] == int(1.25 * isz * (T * BE * L * (a * H + c) + T * BE * I + 2 * BE * OUT * T))


MB = 1 << 20
PARTS = {"parameters": 2 * MB, "activations": 5 * MB, "evaluation": 1 * MB, "data": 3 * MB}


@pytest.mark.parametrize("steps_option,hints", [
    (False, "a smaller --batch-size, --hidden or --tbptt or a smaller --steps or a smaller --hidden or --layers"),
    (True, "a smaller --steps or a smaller --batch-size, --hidden or --tbptt or a smaller --hidden or --layers"),
], ids=["plain", "steps"])
def test_a_refusal_word_for_word_largest_part_first(tmp_path, monkeypatch, steps_option, hints):
    monkeypatch.delenv(memory.SKIP_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UserError) as e:
        memory.check_fits(dict(PARTS), available=MB, steps_option=steps_option)
    # the peak: parameters + the larger of activations and evaluation + data = 2 + 5 + 3 MB
    assert str(e.value) == (
        "this run needs about 10.0 MB of memory (activations kept for backpropagation through time 5.0 MB, "
        "the task's sequences 3.0 MB, parameters, gradients and optimizer state 2.0 MB) but only 1.0 MB is "
        f"available; try {hints} (or set LNRNN_NO_MEMORY_CHECK=1 to try anyway).")
    assert os.listdir(tmp_path) == []
