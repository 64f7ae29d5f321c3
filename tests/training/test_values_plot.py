"""lnrnn/training/plot.py's decisions in numbers: when the loss axis is logarithmic, which loss panels the runs
get and how each is labelled, in which order the panels come."""
import math

from lnrnn.training.plot import LOSS_LABELS, Curves, loss_kinds, metric_names, panels, use_log_scale


def test_log_axis_needs_positive_values_spanning_more_than_the_factor():
    assert use_log_scale([0.01, 1.0])
    assert not use_log_scale([0.0, 1.0, 50.0])        # a zero loss cannot go on a log axis
    assert not use_log_scale([-0.5, 1.0, 50.0])
    assert not use_log_scale([1.0, 20.0])             # a factor of exactly 20: linear
    assert use_log_scale([1.0, 20.5, math.nan, math.inf])  # what is not finite is left out
    assert not use_log_scale([math.nan])
    assert not use_log_scale([])


def records(*keys):
    return [{"epoch": 1, "step": 3, **{k: 1.0 for k in keys}}]


def test_each_head_kind_gets_its_own_loss_panel_whatever_label_is_given():
    runs = [Curves("c", records("val_loss"), kind="classifier"), Curves("m", records("val_loss"), kind="mdn"),
            Curves("old", records("val_loss"))]
    kinds = loss_kinds(runs, "the given label")
    assert kinds == {LOSS_LABELS["classifier"]: [0], LOSS_LABELS["mdn"]: [1], "the given label": [2]}
    assert loss_kinds(runs[2:]) == {"loss": [0]}
    same = [Curves("a", records("val_loss"), kind="mdn"), Curves("b", records("val_loss"), kind="mdn")]
    assert loss_kinds(same, "x") == {LOSS_LABELS["mdn"]: [0, 1]}


def test_panels_come_in_order_with_the_loss_last():
    runs = [Curves("a", records("train_loss", "val_loss", "train_acc", "val_acc")),
            Curves("b", records("val_loss", "val_cer"), kind="ctc")]
    assert metric_names(runs) == ["acc", "cer", "loss"]
    got = panels(runs, "nats")
    assert [(m, idx) for m, _, idx in got] == [("acc", [0]), ("cer", [1]), ("loss", [0]), ("loss", [1])]
    assert [label for m, label, _ in got if m == "loss"] == ["nats", LOSS_LABELS["ctc"]]
