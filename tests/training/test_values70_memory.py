"""lnrnn/training/memory.py against the arrays a small model really allocates: the plan's parameters part equals the
bytes of the flat parameters and gradients, one copy of the parameters for saving, the slots the run's optimizer
allocates on its first step (counted from its slot arrays) and the BN statistics after a forward over all T steps
(counted from the model's buffers); the activations part's backward working set uses the width of the layer's
recurrent product as the model has it (Wh's columns: H for the RNN cells, 4H for the LSTM cells), the batch x's
size from the array drawn here and each row's kept activations from the cell's row (``cells.Cell.activations``)."""
import numpy as np
import pytest

from lnrnn.data.tasks import load_task
from lnrnn.model import cells
from lnrnn.training import memory
from lnrnn.training.optim import OPTIMIZERS
from lnrnn.training.plan import model_for, resolve
from lnrnn.training.runconfig import TrainConfig

B = 4


def _plan(**kw):
    base = dict(task="digits", split="40/20", hidden=5, layers=2, batch_size=B, eval_batch_size=6)
    base.update(kw)
    plan = resolve(TrainConfig(**base))
    task = load_task(plan.task_spec)
    return plan, task, model_for(plan, task)


def _slot_bytes(opt):
    n = 0
    for by_name in opt.slots.values():
        for v in (by_name.values() if isinstance(by_name, dict) else [by_name]):
            n += np.asarray(v).nbytes
    return n


@pytest.mark.parametrize("cell,optimizer,dtype", [
    ("rnn", "adam", "float32"),
    ("bn-rnn", "rmsprop-graves", "float64"),
    ("ln-lstm", "sgd", "float64"),
    ("bn-lstm", "adam", "float32"),
])
def test_parameters_part_is_the_bytes_a_training_step_allocates(cell, optimizer, dtype):
    plan, task, m = _plan(cell=cell, optimizer=optimizer, dtype=dtype)
    T, I = task.steps, task.input_size
    params, grads = m.flat[0].data, m.flat[1].data
    # every parameter array by its shape: the layers' and the head's (its weights and its bias)
    shapes = [p.shape for layer in m.stack.layers for p in layer.params.values()] + \
             [p.shape for p in m.head.params.values()]
    assert params.size == sum(int(np.prod(s)) for s in shapes)
    assert m.head.params["b"].size == task.num_classes
    rng = np.random.default_rng(0)
    x = rng.standard_normal((T, B, I)).astype(dtype)
    y = rng.integers(0, task.num_classes, B)
    m.loss_and_grad(x, y)
    stats = sum(v.nbytes for v in m.buffers.values())   # BN statistics after T steps (none for the others)
    assert (stats > 0) == cell.startswith("bn")
    opt = OPTIMIZERS[optimizer]()
    opt.step(params, grads)
    saving_copy = params.copy()
    want = params.nbytes + grads.nbytes + saving_copy.nbytes + _slot_bytes(opt) + stats
    assert plan.memory["parameters"] == want


@pytest.mark.parametrize("cell", ["rnn", "ln-rnn", "lstm"])
def test_activations_part_uses_the_layers_own_product_width(cell):
    tbptt = 16
    plan, task, m = _plan(cell=cell, tbptt=tbptt, dtype="float64")
    T, I, O = task.steps, task.input_size, task.num_classes
    H, L = 5, 2
    G = m.stack.layers[0].params["Wh"].shape[1]
    assert G == (H if cell.endswith("rnn") else 4 * H)
    a, c = cells.get(cell).activations
    x = np.zeros((T, B, I))
    kept = tbptt * B * L * (a * H + c)               # forward's saved arrays over a chunk
    work = tbptt * B * (G + H + max(I, H))           # backward: dL/d(pre) (Tc,B,G), dL/dy, dL/dx of one layer
    head = 3 * B * O                                 # the head's outputs on the last step
    want = int(memory.HEADROOM * 8 * (kept + work + x.size + head))
    assert plan.memory["activations"] == want
