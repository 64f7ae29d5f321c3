"""A checkpoint whose model description disagrees with the weights saved beside it (lnrnn/training/evaluation.py:
check_saved_sizes, called by model_from_checkpoint before anything is built).

checkpoint.json's description of the model is not covered by the arrays' hash: a description damaged to num_layers
2**70 made lnrnn eval, export, predict and sample (and lnrnn.load_run, lnrnn.torch.from_run) build layers until the
memory ran out, and a hidden size of 30000 drew gigabytes of weights before the arrays were found not to fit. The
judges: a two-layer run trained here (hidden 3, one input: rnn.l0.Wh (3, 12), rnn.l0.Wx (1, 12)) with one field of
its description changed at a time, read by every command and binding that rebuilds a model, each one sentence naming
the field, its value and what the arrays hold; the unchanged run evaluates; check_saved_sizes on arrays written here
(a synthesis network's layer 0 reads its C characters beside the input; values that are not whole numbers are left
to build_model's own refusal)."""
import json
import shutil
import signal

import numpy as np
import pytest

import lnrnn
from lnrnn.errors import CheckpointError
from lnrnn.training.evaluation import check_saved_sizes
from test_cli import assert_clean_error, assert_ok, invoke

HUGE = 2 ** 70


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("savedsizes") / "run"
    assert_ok(invoke("train", "--task", "digits", "--hidden", 3, "--layers", 2, "--max-steps", 2, "--out", out, "-q"))
    return out


def damaged(trained, tmp_path, **fields):
    run = tmp_path / "run"
    shutil.copytree(trained, run)
    path = run / "checkpoint.json"
    meta = json.loads(path.read_text())
    meta["model"].update(fields)
    path.write_text(json.dumps(meta))
    return run


class Hung(Exception):
    pass


def within(seconds, fn):
    """fn() under an alarm: the code before this check built 2**70 layers until the memory ran out."""
    def ring(*_):
        raise Hung(f"still running after {seconds} s")
    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        return fn()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def refusal(run, said):
    return f"Error: checkpoint {run} does not describe a model lnrnn can rebuild ({said})."


def test_the_run_as_saved_evaluates(trained):
    assert_ok(invoke("eval", "--checkpoint", trained))
    meta = json.loads((trained / "checkpoint.json").read_text())
    assert (meta["model"]["num_layers"], meta["model"]["hidden_size"], meta["model"]["input_size"]) == (2, 3, 1)


@pytest.mark.parametrize("layers", [HUGE, 3, 1])
def test_a_layer_count_that_is_not_the_saved_one_is_refused_by_eval_export_and_predict(trained, tmp_path, layers):
    run = damaged(trained, tmp_path, num_layers=layers)
    said = f"its description says num_layers {layers}, but it holds the weights of 2"
    for args in (("eval", "--checkpoint", run), ("export", "--checkpoint", run, "--out", tmp_path / "w.safetensors"),
                 ("predict", "--checkpoint", run, "--input", tmp_path / "none.npy", "--out", tmp_path / "p.csv")):
        line = within(60, lambda: assert_clean_error(invoke(*args), said))
        assert line == refusal(run, said)
    assert not (tmp_path / "w.safetensors").exists() and not (tmp_path / "p.csv").exists()


def test_the_python_api_and_the_torch_binding_refuse_it_too(trained, tmp_path):
    run = damaged(trained, tmp_path, num_layers=HUGE)
    with pytest.raises(CheckpointError, match=f"num_layers {HUGE}, but it holds the weights of 2"):
        within(60, lambda: lnrnn.load_run(run))
    torch_binding = pytest.importorskip("lnrnn.torch")
    with pytest.raises(CheckpointError, match=f"num_layers {HUGE}, but it holds the weights of 2"):
        within(60, lambda: torch_binding.from_run(run))


@pytest.mark.parametrize("hidden", [300, 4, 2])
def test_a_hidden_size_that_is_not_the_saved_one(trained, tmp_path, hidden):
    run = damaged(trained, tmp_path, hidden_size=hidden)
    said = f"its description says hidden_size {hidden}, but rnn.l0.Wh has shape (3, 12)"
    assert within(60, lambda: assert_clean_error(invoke("eval", "--checkpoint", run), said)) == refusal(run, said)


@pytest.mark.parametrize("inputs", [2, 28])
def test_an_input_size_that_is_not_the_saved_one(trained, tmp_path, inputs):
    run = damaged(trained, tmp_path, input_size=inputs)
    said = f"its description says input_size {inputs}, but rnn.l0.Wx has shape (1, 12)"
    assert within(60, lambda: assert_clean_error(invoke("eval", "--checkpoint", run), said)) == refusal(run, said)


# ---- check_saved_sizes on arrays written here ----

def arrays(L=2, I=3, H=4, G=16, C=0):
    out = {}
    for k in range(L):
        out[f"param/rnn.l{k}.Wx"] = np.zeros((I + C if k == 0 else H, G), np.float32)
        out[f"param/rnn.l{k}.Wh"] = np.zeros((H, G), np.float32)
    return out


def test_saved_sizes_that_agree_pass():
    check_saved_sizes(dict(num_layers=2, hidden_size=4, input_size=3), arrays())
    check_saved_sizes(dict(num_layers=1, hidden_size=4, input_size=3, window=2, alphabet_size=5), arrays(L=1, C=5))


def test_the_synthesis_network_reads_its_characters_beside_the_input():
    with pytest.raises(ValueError, match=r"^its description says input_size 3 \(and 6 characters\), but rnn\.l0\.Wx "
                                         r"has shape \(8, 16\)$"):
        check_saved_sizes(dict(num_layers=1, hidden_size=4, input_size=3, window=2, alphabet_size=6), arrays(L=1, C=5))
    with pytest.raises(ValueError, match=r"^its description says input_size 3, but rnn\.l0\.Wx has shape \(8, 16\)$"):
        check_saved_sizes(dict(num_layers=1, hidden_size=4, input_size=3, alphabet_size=5), arrays(L=1, C=5))


def test_layers_are_counted_from_l0_up_to_the_first_missing():
    a = arrays(L=3)
    del a["param/rnn.l1.Wh"]
    with pytest.raises(ValueError, match=r"^its description says num_layers 3, but it holds the weights of 1$"):
        check_saved_sizes(dict(num_layers=3, hidden_size=4, input_size=3), a)
    a = arrays(L=2)
    a["optim/m/rnn.l2.Wh"] = a["param/rnn.l1.Wh"]                 # an optimizer slot is not a layer's weight
    with pytest.raises(ValueError, match=r"^its description says num_layers 3, but it holds the weights of 2$"):
        check_saved_sizes(dict(num_layers=3, hidden_size=4, input_size=3), a)


@pytest.mark.parametrize("field,value", [("num_layers", "2"), ("num_layers", True), ("hidden_size", 4.0),
                                         ("input_size", None), ("hidden_size", [4])])
def test_values_that_are_not_whole_numbers_are_left_to_build_model(field, value):
    """build_model refuses those in its own words (a size of True would pass a comparison with 1)."""
    config = dict(num_layers=2, hidden_size=4, input_size=3)
    config[field] = value
    check_saved_sizes(config, arrays())
    if field != "num_layers":                                       # the layer count is still checked beside it
        with pytest.raises(ValueError, match="num_layers 1, but it holds the weights of 2"):
            check_saved_sizes(dict(config, num_layers=1), arrays())
