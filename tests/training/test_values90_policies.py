"""Policies by their definitions: the patience rule (``stopping.judge``) over worse/better/worse/better
histories with ties and a NaN, for a metric to lower and one to raise, against the rule written out here
(strictly better: the new best, the count back to 0; anything else: one more; the stop when the count reaches
--patience), and --best-metric none judging nothing; a second signal during a save aborts, after the save,
with that second signal; plan.validate at the edges of --tbptt, --save-every and --eval-batch-size (at least
1: 1 taken, 0 refused naming the option); plan.state_noise's default (BN cells on tasks whose sequences begin
alike, only there)."""
import math
import signal
from types import SimpleNamespace

import pytest

from lnrnn.config import BN_STATE_NOISE
from lnrnn.errors import UserError
from lnrnn.model import cells
from lnrnn.training import plan as plan_module
from lnrnn.training.plan import resolve_defaults, validate
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.stopping import Abort, StopFlag, judge


def run_of(metric, patience):
    return SimpleNamespace(best={"metric": metric, "value": None, "step": None, "epoch": None, "since": 0},
                           cfg=SimpleNamespace(patience=patience), step=0, early_stop=None)


def by_hand(values, higher, patience):
    """Per evaluation: (better, best value, its evaluation, since); and the evaluation the stop comes at."""
    best = best_i = None
    since, out, stop = 0, [], None
    for i, v in enumerate(values):
        better = best is None or (v > best if higher else v < best)
        if better:
            best, best_i, since = v, i, 0
        else:
            since += 1
            if stop is None and patience is not None and since >= patience:
                stop = i
        out.append((better, best, best_i, since))
    return out, stop


HISTORIES = {
    "loss": [1.0, 1.3, 0.7, 0.9, 0.7, 0.6, math.nan, 0.65, 0.6, 0.5],
    "cer": [0.5, 0.5, 0.4, 0.45, 0.3, 0.35, 0.3, 0.3, 0.31, 0.2],
    "acc": [0.2, 0.1, 0.3, 0.3, 0.25, 0.4, 0.35, math.nan, 0.4, 0.5],
}


@pytest.mark.parametrize("metric", list(HISTORIES))
@pytest.mark.parametrize("patience", [None, 1, 2, 3])
def test_judge_follows_the_rule_over_a_non_monotonic_history(metric, patience):
    values = HISTORIES[metric]
    want, stop = by_hand(values, metric == "acc", patience)
    t = run_of(metric, patience)
    for i, v in enumerate(values):
        t.step = 10 * (i + 1)
        rec = {"val_" + metric: v, "epoch": i + 1}
        better, best, best_i, since = want[i]
        assert judge(t, rec) is better, (i, v)
        assert t.best["value"] == best and t.best["step"] == 10 * (best_i + 1) and t.best["epoch"] == best_i + 1
        assert t.best["since"] == since
        if stop is not None and i == stop:
            assert t.early_stop == {"patience": patience, "metric": metric, "best": best,
                                    "best_step": 10 * (best_i + 1), "step": t.step}
            assert rec.get("early_stop") is True
            return
        assert t.early_stop is None and "early_stop" not in rec
    assert stop is None


def test_no_best_metric_judges_nothing():
    t = run_of("none", None)
    for i, v in enumerate([1.0, 0.5, 2.0]):
        t.step = i + 1
        assert judge(t, {"val_loss": v, "epoch": 1}) is False
    assert t.best == {"metric": "none", "value": None, "step": None, "epoch": None, "since": 0}
    assert t.early_stop is None


@pytest.mark.parametrize("first,second", [(signal.SIGTERM, signal.SIGINT), (signal.SIGINT, signal.SIGTERM)])
def test_a_second_signal_during_a_save_aborts_with_it_after_the_save(first, second):
    flag = StopFlag()                      # not entered: its handler is called here, no signal is installed
    flag._handler(first, None)
    assert flag.requested and flag.signum == first
    saved = []
    with pytest.raises(Abort) as e:
        with flag.saving():
            flag._handler(second, None)    # deferred until the save is complete
            saved.append(True)
    assert saved == [True]
    assert e.value.signum == second
    with pytest.raises(Abort) as e:        # outside a save: at once
        flag._handler(second, None)
    assert e.value.signum == second


def config(**kw):
    return resolve_defaults(TrainConfig(**{"task": "digits", "out": "runs/x", "cell": "lstm", **kw}))


@pytest.mark.parametrize("option,flag", [("tbptt", "--tbptt"), ("save_every", "--save-every"),
                                         ("eval_batch_size", "--eval-batch-size")])
def test_at_least_one_takes_one_and_refuses_zero(option, flag):
    assert validate(config(**{option: 1})).name == "lstm"
    assert validate(config(**{option: 2})).name == "lstm"
    with pytest.raises(UserError) as e:
        validate(config(**{option: 0}))
    assert str(e.value).startswith(f"{flag} must be at least 1") and str(e.value).endswith("not 0.")


@pytest.mark.parametrize("cell", ["bn-lstm", "bn-rnn", "ln-lstm", "ln-rnn", "lstm", "rnn"])
@pytest.mark.parametrize("prefix", [True, False])
def test_default_state_noise_is_for_bn_cells_on_alike_beginnings(cell, prefix):
    row = cells.get(cell)
    task = SimpleNamespace(extra={"constant_prefix": prefix})
    plan = SimpleNamespace(cfg=SimpleNamespace(state_noise=None), cell=row)
    want = BN_STATE_NOISE if (cell.startswith("bn-") and prefix) else 0.0
    assert plan_module.state_noise(plan, task) == want
    given = SimpleNamespace(cfg=SimpleNamespace(state_noise=0.25), cell=row)
    assert plan_module.state_noise(given, task) == 0.25
