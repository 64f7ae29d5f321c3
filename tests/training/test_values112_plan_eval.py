"""lnrnn/training/plan.py's checks and lnrnn/training/evaluation.py's helpers by value: --epochs and
--eval-every below 1 refused in one sentence naming the option while 1 resolves, --best-metric none accepted
without --patience and refused with it; split_arrays against the checkpoint's key layout ('param/NAME',
'buffer/NAME', 'optim/SLOT/NAME') taken apart here; format_metrics against its documented form
('loss 0.4123 acc 87.20%', a metric METRIC_INFO does not know shown as a plain number)."""
import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.training.evaluation import format_metrics, split_arrays
from lnrnn.training.plan import resolve
from lnrnn.training.runconfig import TrainConfig


def plan_of(**kw):
    return resolve(TrainConfig(task="strokes-synthetic", split="8/4", **kw))


@pytest.mark.parametrize("option,field", [("--epochs", "epochs"), ("--eval-every", "eval_every")])
def test_counts_below_one_are_refused_and_one_resolves(option, field):
    for bad in (0, -1):
        with pytest.raises(UserError, match=f"{option} must be at least 1"):
            plan_of(**{field: bad})
    assert getattr(plan_of(**{field: 1}).cfg, field) == 1


def test_best_metric_none_needs_no_patience():
    assert plan_of(best_metric="none").cfg.best_metric == "none"
    with pytest.raises(UserError, match="--patience"):
        plan_of(best_metric="none", patience=2)
    assert plan_of(best_metric="loss", patience=2).cfg.patience == 2


def test_split_arrays_by_the_checkpoint_key_layout():
    rng = np.random.default_rng(0)
    arrays = {k: rng.normal(size=2) for k in ("param/w", "param/layer0/b", "buffer/mean", "optim/m/w",
                                              "optim/m/layer0/b", "optim/v/w", "other/x")}
    model, slots = split_arrays(arrays)
    want_model, want_slots = {}, {}
    for k, v in arrays.items():
        parts = k.split("/")
        if parts[0] in ("param", "buffer"):
            want_model["/".join(parts[1:])] = v
        elif parts[0] == "optim":
            want_slots.setdefault(parts[1], {})["/".join(parts[2:])] = v
    assert model.keys() == want_model.keys() and all(model[k] is want_model[k] for k in model)
    assert slots.keys() == want_slots.keys() == {"m", "v"}
    for s in slots:
        assert slots[s].keys() == want_slots[s].keys()
        assert all(slots[s][k] is want_slots[s][k] for k in slots[s])


def test_format_metrics_percent_only_where_metric_info_says_so():
    means = {"loss": 0.41234, "acc": 0.872, "nats_per_step": 1.25}
    assert format_metrics(means) == f"loss {0.41234:.4f} acc {100 * 0.872:.2f}% nats_per_step {1.25:.4f}"
    assert format_metrics(means) == "loss 0.4123 acc 87.20% nats_per_step 1.2500"
    assert format_metrics(means, long=True) == "loss 0.4123, accuracy 87.20%, nats_per_step 1.2500"
