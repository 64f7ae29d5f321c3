"""lnrnn/training/plan.py where a setting's meaning is "off": --window 0 is no window, so a bidirectional
stack may have it; --head mdn names a stroke task's own head, which its task spec leaves out (the spec takes
only a reader's 'ctc'); a BN cell's default state noise only on tasks that say their sequences begin alike
(``constant_prefix``) and 0 where a task says nothing; and the device refusals as they reach the user: an
unknown device's sentence is the backend's with one closing period, and --device cuda where CUDA cannot run
names the backend's reason, not its flag."""
from types import SimpleNamespace

import pytest

from lnrnn import backend
from lnrnn.config import BN_STATE_NOISE
from lnrnn.errors import UserError
from lnrnn.model import cells
from lnrnn.training import plan
from lnrnn.training.runconfig import TrainConfig


def test_window_zero_is_no_window_for_a_bidirectional_stack():
    cfg = plan.resolve_defaults(TrainConfig(task="digits", bidirectional=True, window=0))
    assert plan.validate(cfg).name == cfg.cell
    with pytest.raises(UserError, match="cannot be bidirectional"):   # a window of 1 Gaussian is one
        plan.validate(plan.resolve_defaults(TrainConfig(task="digits", bidirectional=True, window=1)))


def test_head_mdn_is_the_stroke_tasks_own_and_stays_out_of_the_spec():
    assert plan.task_options(TrainConfig(task="strokes-hershey", head="mdn")).get("head") is None
    assert plan.task_options(TrainConfig(task="strokes-hershey", head="ctc"))["head"] == "ctc"
    spec = plan.resolve(TrainConfig(task="strokes-hershey", head="mdn", hidden=4, layers=1)).task_spec
    assert spec.get("head") is None


@pytest.mark.parametrize("extra, want", [({}, 0.0), ({"constant_prefix": False}, 0.0),
                                         ({"constant_prefix": True}, BN_STATE_NOISE)])
def test_default_state_noise_only_where_the_task_says_its_sequences_begin_alike(extra, want):
    task = SimpleNamespace(extra=extra)
    bn = SimpleNamespace(cfg=SimpleNamespace(state_noise=None), cell=cells.get("bn-lstm"))
    ln = SimpleNamespace(cfg=SimpleNamespace(state_noise=None), cell=cells.get("ln-lstm"))
    assert plan.state_noise(bn, task) == want
    assert plan.state_noise(ln, task) == 0.0
    given = SimpleNamespace(cfg=SimpleNamespace(state_noise=0.25), cell=cells.get("bn-lstm"))
    assert plan.state_noise(given, task) == 0.25


def test_an_unknown_device_is_the_backends_sentence_with_one_period():
    with pytest.raises(ValueError) as raw:
        backend.check_device("tpu")
    with pytest.raises(UserError) as e:
        plan.validate(plan.resolve_defaults(TrainConfig(device="tpu")))
    assert str(e.value) == f"{raw.value}." and not str(raw.value).endswith(".")


def test_cuda_refused_with_the_backends_reason(monkeypatch):
    reason = "no CUDA driver could be loaded (a test's reason)"

    def refuse(device):
        raise backend.CudaUnavailable(reason)
    monkeypatch.setattr(backend, "check_device", refuse)
    monkeypatch.setattr(backend, "cuda_usable", lambda: (False, reason))
    with pytest.raises(UserError) as e:
        plan.validate(plan.resolve_defaults(TrainConfig(device="cuda")))
    assert str(e.value) == f"--device cuda: CUDA is not usable here ({reason}); train with --device cpu."
