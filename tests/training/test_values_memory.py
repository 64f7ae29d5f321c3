"""lnrnn/training/memory.py in numbers: the parameters part against the model's own counts, the activation
and evaluation parts against hand sums of the docstring's terms, the memory available read from
/proc/meminfo and the cgroup files (served by a stand-in ``open``), and when check_fits refuses and
what it names and advises."""
import io

import pytest

from lnrnn.data.tasks import load_task
from lnrnn.errors import UserError
from lnrnn.model import cells
from lnrnn.training import memory
from lnrnn.training.plan import model_for, resolve
from lnrnn.training.runconfig import TrainConfig

MB, GB = 1 << 20, 1 << 30


# ---------------------------------------------------------------------------------------------
# the estimate
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("cell,layers,bidirectional,skip,dtype", [
    ("bn-lstm", 2, False, False, "float32"),
    ("bn-lstm", 2, True, False, "float32"),
    ("bn-rnn", 1, True, False, "float64"),
    ("ln-rnn", 2, False, True, "float64"),
])
def test_parameters_part_counts_the_models_parameters_and_statistics(cell, layers, bidirectional, skip, dtype):
    """parameters = item size x (params, grads, a copy for saving and Adam's two slots: 5 x the model's
    parameter count, + every BN statistic row (mean and variance) over the task's T steps)."""
    plan = resolve(TrainConfig(cell=cell, task="digits", split="40/20", hidden=5, layers=layers,
                               bidirectional=bidirectional, skip=skip, dtype=dtype, batch_size=4, eval_batch_size=6))
    task = load_task(plan.task_spec)
    model = model_for(plan, task)
    # the model's statistics start one row long and grow to T rows: count the width of each (mean and variance)
    widths = sum(v.shape[1] for v in model.buffers.values())
    assert (widths > 0) == cell.startswith("bn")
    if cell.startswith("bn"):
        assert sum(k.split(".")[-1].startswith("rv") for k in model.buffers) * 2 == len(model.buffers)
    itemsize = 8 if dtype == "float64" else 4
    want = itemsize * (5 * model.num_params() + task.steps * widths)
    assert plan.memory["parameters"] == want


def _cfg(**kw):
    base = dict(cell="lstm", hidden=10, layers=1, batch_size=4, eval_batch_size=6, skip=False)
    base.update(kw)
    return TrainConfig(**base)


# A one-layer LSTM (11 H saved per step and row), H 10 (G 40), I 3, T 20, B 4, eval batch 6, a head of
# 5 outputs on the last step. Training keeps Tc*B*(11H) + Tc*B*(G + H + max(I, H)) + T*B*I + 3*B*5,
# evaluation T*Be*(11H) + T*Be*I + 2*Be*5; both times 1.25 (HEADROOM) times the item size.
T, I, OUT = 20, 3, 5


def test_activations_and_evaluation_by_hand():
    parts = memory.estimate(_cfg(), cells.get("lstm"), T, I, OUT, False)
    train = 20 * 4 * 110 + 20 * 4 * (40 + 10 + 10) + 20 * 4 * 3 + 3 * 4 * 5    # 13900
    evaluation = 20 * 6 * 110 + 20 * 6 * 3 + 2 * 6 * 5                        # 13620
    assert parts["activations"] == 5 * train and parts["evaluation"] == 5 * evaluation   # 1.25 x 4 bytes
    assert parts["data"] == 0


def test_the_evaluation_part_follows_the_eval_batch_not_the_training_batch():
    small = memory.estimate(_cfg(eval_batch_size=6), cells.get("lstm"), T, I, OUT, False)
    large = memory.estimate(_cfg(eval_batch_size=60), cells.get("lstm"), T, I, OUT, False)
    assert large["evaluation"] == 10 * small["evaluation"]
    assert large["activations"] == small["activations"]
    other = memory.estimate(_cfg(batch_size=40), cells.get("lstm"), T, I, OUT, False)
    assert other["evaluation"] == small["evaluation"] and other["activations"] > 5 * small["activations"]


def test_bidirectional_doubles_what_each_layer_saves():
    parts = memory.estimate(_cfg(bidirectional=True), cells.get("lstm"), T, I, OUT, False)
    train = 20 * 4 * 220 + 20 * 4 * (40 + 10 + 10) + 20 * 4 * 3 + 3 * 4 * 5  # two directions: 2 x 11H per row
    evaluation = 20 * 6 * 220 + 20 * 6 * 3 + 2 * 6 * 5
    assert parts["activations"] == 5 * train and parts["evaluation"] == 5 * evaluation


def test_tbptt_keeps_only_a_chunk_of_steps():
    parts = memory.estimate(_cfg(tbptt=5), cells.get("lstm"), T, I, OUT, False)
    train = 5 * 4 * 110 + 5 * 4 * 60 + 20 * 4 * 3 + 3 * 4 * 5     # the batch x stays whole: T*B*I
    assert parts["activations"] == 5 * train
    longer = memory.estimate(_cfg(tbptt=50), cells.get("lstm"), T, I, OUT, False)   # a chunk past T: T
    assert longer == memory.estimate(_cfg(), cells.get("lstm"), T, I, OUT, False)


def test_float64_is_twice_float32_in_every_part():
    for cell in ("lstm", "bn-lstm", "ln-rnn"):
        a = memory.estimate(_cfg(cell=cell), cells.get(cell), T, I, OUT, False, 1000)
        b = memory.estimate(_cfg(cell=cell, dtype="float64"), cells.get(cell), T, I, OUT, False, 1000)
        assert b["parameters"] == 2 * a["parameters"] and b["activations"] == 2 * a["activations"]
        assert b["evaluation"] == 2 * a["evaluation"] and a["data"] == b["data"] == 1000


def test_float32_parameters_are_four_bytes_each():
    """A one-layer LSTM: Wx (3,40) + Wh (10,40) + b (40) and the head 10 x 5 + 5: 615 parameters, 5 copies."""
    parts = memory.estimate(_cfg(), cells.get("lstm"), T, I, OUT, False)
    assert parts["parameters"] == 4 * 5 * (3 * 40 + 10 * 40 + 40 + 10 * 5 + 5)
    parts = memory.estimate(_cfg(dtype="float64"), cells.get("lstm"), T, I, OUT, False)
    assert parts["parameters"] == 8 * 5 * (3 * 40 + 10 * 40 + 40 + 10 * 5 + 5)


def test_on_cuda_only_the_host_batches_count():
    parts = memory.estimate(_cfg(device="cuda"), cells.get("lstm"), T, I, OUT, False)
    assert parts["activations"] == 4 * T * 4 * I and parts["evaluation"] == 4 * T * 6 * I


# ---------------------------------------------------------------------------------------------
# the memory available
# ---------------------------------------------------------------------------------------------
def _files(monkeypatch, files, pages=None):
    """memory.available_bytes reads ``files`` {path: text}; every other path is missing."""
    def fake_open(path, mode="r", *args, **kwargs):
        if path not in files:
            raise FileNotFoundError(2, "No such file or directory", path)
        return io.StringIO(files[path])
    monkeypatch.setattr(memory, "open", fake_open, raising=False)
    if pages is not None:
        sizes = {"SC_AVPHYS_PAGES": pages, "SC_PAGE_SIZE": 4096}
        monkeypatch.setattr(memory.os, "sysconf", lambda name: sizes[name])


MEMINFO = "MemTotal:       16000000 kB\nMemFree:         1000000 kB\nMemAvailable:    2000000 kB\nCached: 5 kB\n"
V2 = ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current")
V1 = ("/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes")


def test_meminfo_is_in_kilobytes(monkeypatch):
    _files(monkeypatch, {"/proc/meminfo": MEMINFO})
    assert memory.available_bytes() == 2000000 * 1024


def test_the_cgroup_room_is_its_limit_less_its_usage(monkeypatch):
    _files(monkeypatch, {"/proc/meminfo": MEMINFO, V2[0]: "1073741824\n", V2[1]: "268435456\n"})
    assert memory.available_bytes() == GB - 256 * MB
    _files(monkeypatch, {"/proc/meminfo": MEMINFO, V2[0]: "max\n", V2[1]: "268435456\n"})   # no limit
    assert memory.available_bytes() == 2000000 * 1024
    _files(monkeypatch, {"/proc/meminfo": MEMINFO, V1[0]: "536870912", V1[1]: "100"})       # cgroup v1
    assert memory.available_bytes() == 512 * MB - 100
    _files(monkeypatch, {"/proc/meminfo": MEMINFO, V2[0]: "1000", V2[1]: "5000"})            # over its limit
    assert memory.available_bytes() == 0
    _files(monkeypatch, {"/proc/meminfo": "MemAvailable: 100 kB\n", V2[0]: str(GB), V2[1]: "0"})
    assert memory.available_bytes() == 100 * 1024                                               # the smaller


def test_without_meminfo_the_free_pages_count(monkeypatch):
    _files(monkeypatch, {}, pages=1000)
    assert memory.available_bytes() == 1000 * 4096
    _files(monkeypatch, {V2[0]: str(GB), V2[1]: str(GB - 4096)}, pages=1000)
    assert memory.available_bytes() == 4096


# ---------------------------------------------------------------------------------------------
# the check
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,text", [(3 * GB, "3.0 GB"), (1536 * MB, "1.5 GB"), (5 * MB, "5.0 MB"),
                                    (2048, "2 KB"), (3 << 40, "3.0 TB"), (GB - MB, "1023.0 MB")])
def test_format_bytes(n, text):
    assert memory.format_bytes(n) == text


def test_the_peak_counts_the_larger_of_training_and_evaluation(monkeypatch):
    monkeypatch.delenv(memory.SKIP_ENV, raising=False)
    parts = {"parameters": 100 * MB, "activations": 300 * MB, "evaluation": GB, "data": 50 * MB}
    assert memory.check_fits(parts, available=2 * GB) == 1174 * MB
    with pytest.raises(UserError) as e:
        memory.check_fits(parts, available=GB)
    msg = str(e.value)
    assert msg.startswith("this run needs about 1.1 GB of memory (evaluation batches 1.0 GB, ")
    assert "only 1.0 GB is available" in msg
    assert "activations kept" not in msg and "--batch-size" not in msg   # training's part does not count
    assert "try a smaller --eval-batch-size (or set LNRNN_NO_MEMORY_CHECK=1" in msg
    # the other way round: training's activations are the peak, and what to cut is the batch
    parts = {"parameters": 100 * MB, "activations": GB, "evaluation": 300 * MB, "data": 50 * MB}
    with pytest.raises(UserError) as e:
        memory.check_fits(parts, available=GB)
    assert "evaluation batches" not in str(e.value) and "--eval-batch-size" not in str(e.value)
    assert "try a smaller --batch-size, --hidden or --tbptt" in str(e.value)


def test_steps_come_first_when_the_length_came_from_them(monkeypatch):
    monkeypatch.delenv(memory.SKIP_ENV, raising=False)
    parts = {"parameters": MB, "activations": GB, "evaluation": MB, "data": GB}
    with pytest.raises(UserError, match=r"try a smaller --steps or a smaller --batch-size"):
        memory.check_fits(parts, available=GB, steps_option=True)
    with pytest.raises(UserError) as e:
        memory.check_fits(parts, available=GB)
    assert "try a smaller --batch-size, --hidden or --tbptt or a smaller --steps" in str(e.value)
    monkeypatch.setenv(memory.SKIP_ENV, "1")
    assert memory.check_fits(parts, available=GB) is None


def test_nothing_to_compare_with_lets_the_run_through(monkeypatch):
    monkeypatch.delenv(memory.SKIP_ENV, raising=False)
    monkeypatch.setattr(memory, "available_bytes", lambda: None)
    parts = {"parameters": 1 << 50, "activations": 0, "evaluation": 0, "data": 0}
    assert memory.check_fits(parts) == 1 << 50
