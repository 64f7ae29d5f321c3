"""The plan's refusals word for word: each names the value given for its own option, nothing else."""
from test_values301_plan_group import refusal


def test_save_every_seconds_negative_is_named_not_save_every():
    assert refusal(save_every_seconds=-1.5, save_every=3) == (
        "--save-every-seconds must be 0 (off) or positive, not -1.5.")


def test_clip_gates_negative_is_named_not_clip():
    assert refusal(cell="lstm", clip_gates=-0.5, clip=2.0) == (
        "--clip-gates must be 0 (off) or a positive number, not -0.5.")


def test_an_unknown_best_metric_is_quoted():
    assert refusal(best_metric="") == "--best-metric must be one of loss, acc, cer, none, not ''."
