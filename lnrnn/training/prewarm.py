"""Cold start: compile a recurrent layer's backward time loop in a second process while this one
compiles its forward (the first update of `lnrnn train`).

On a fresh install the first update compiles every kernel it calls, one after the other, on one
core: for a BN-LSTM at I=1 the forward time loop and its helpers take about 9 s and the backward's
about 9 s more (README, "First update"). The machine has two cores, and the backward loop's argument
types do not depend on anything the forward computes, only on the buffers its Python wrapper
allocates. So, while armed (``armed``: the trainer's first update), a layer's training forward on
the CPU whose backward loop is not in Numba's on-disk cache starts ``python -m lnrnn.training.prewarm SPEC``:
that process builds the same layer on a 2x2 batch, runs its forward with the time loop skipped and
its backward with the time loop compiled and not run (``kernels.cpu.threads.dry_run``), so the compiled
loop lands in the cache (same environment: same NUMBA_CACHE_DIR and BLAS choice, so the same cache
files). The layer's backward first waits for that process (``wait``), and Numba then loads the loop
from the cache instead of compiling it. If the child fails or is slow, the parent compiles the loop
itself: the result is the same kernel either way, only the time differs.

Not started: when the cache is off (LNRNN_NO_CACHE), LNRNN_PREWARM=0, on a device other than the
CPU, or (the trainer's choice) in an MPI group, where the ranks already compile side by side. One
child per kind of backward loop (cell, norm, dtype); sizes and masks do not change a loop's argument
types (the BN kernels turn no mask into all-T lengths, the others mask outside the loop), so the child
runs unmasked.
"""
import atexit
import contextlib
import json
import os
import subprocess
import sys

import numpy as np
from numba.core import event

from lnrnn import compiling

WAIT_S = 600.0  # a child still compiling after this long is stopped, and the parent compiles itself

_state = {"armed": False, "children": {}}  # key -> Popen, for this process's children


def enabled():
    from lnrnn.config import CACHE
    return CACHE and os.environ.get("LNRNN_PREWARM", "1") != "0"


@contextlib.contextmanager
def armed(on=True):
    """Within the block (the trainer's first update), layer forwards may start prewarm children: the
    block installs ``layer_forward`` and ``wait`` as the layers' hooks (``lnrnn.model.layers.HOOKS``; the
    layers never import this module). Leaving it normally reaps the children (a backward has normally
    waited for them already); leaving it by an exception (bad data, a diverged loss, Ctrl-C) stops them
    at once, so the error is not held up."""
    from lnrnn.model import layers
    old, _state["armed"] = _state["armed"], bool(on) and enabled()
    old_hooks = dict(layers.HOOKS)
    if _state["armed"]:
        layers.HOOKS.update(training_forward=layer_forward, before_backward=wait)
    try:
        yield
    except BaseException:
        stop()
        raise
    finally:
        _state["armed"] = old
        layers.HOOKS.update(old_hooks)
    wait()


def _in_cache(fn):
    """True when Numba's cache holds an index for fn (any signature: a cheap stat, no unpickling), or
    when that cannot be told (other Numba internals): then no child is started."""
    try:
        return os.path.exists(fn._cache._cache_file._index_path)
    except AttributeError:
        return True


def layer_forward(layer):
    """Called by RecurrentLayer.forward for a training forward (keep=True), through the hook ``armed``
    installs: start a child for its backward loop when on the CPU and the loop is not cached yet."""
    if not _state["armed"] or layer.device != "cpu":
        return
    spec = {"cell": layer.cell, "norm": layer.norm, "I": layer.I, "H": layer.H,
            "dtype": np.dtype(layer.dtype).name, "clip_gates": float(layer.clip_gates)}
    key = (spec["cell"], spec["norm"], spec["dtype"])  # masks and sizes leave the loop's types as they are
    if key in _state["children"] or _in_cache(layer.spec.backward_loop):
        return
    # the child imports this very lnrnn (a checkout run without installing, or another copy on the path,
    # would otherwise compile some other package's kernels into other cache files)
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # above lnrnn/
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p))
    try:
        _state["children"][key] = subprocess.Popen(
            [sys.executable, "-m", "lnrnn.training.prewarm", json.dumps(spec)], stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    except OSError:  # no child: this process compiles the loop itself
        _state["children"][key] = None


def wait():
    """Wait for the children started so far (RecurrentLayer.backward calls this before its kernels);
    a child past WAIT_S is stopped. Returns immediately when there are none."""
    children = _state["children"]
    for key, proc in list(children.items()):
        if proc is None:
            continue
        # announced as a compilation, so that compile clocks (lnrnn.compiling.CompileClock: the trainer's
        # "plus N s compiling") count the wait, which is compiling done elsewhere
        with event.trigger_event(compiling.KIND, data={"dispatcher": None, "prewarm": key}):
            try:
                proc.wait(timeout=WAIT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        children[key] = None  # done: not started again for this key in this process


@atexit.register
def stop():
    """Kill the children still running (their loops compile again when needed)."""
    children = _state["children"]
    for key, proc in list(children.items()):
        if proc is not None:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            children[key] = None


def compile_backward(spec):
    """The child's work: the layer of spec on a 2x2 batch, forward with its time loop skipped, backward
    with its time loop compiled (into the cache) and not run."""
    from lnrnn.kernels.cpu.threads import dry_run
    from lnrnn.model.layers import RecurrentLayer
    dt = np.dtype(spec["dtype"]).type
    layer = RecurrentLayer(spec["cell"], spec["norm"], spec["I"], spec["H"], dtype=dt, max_steps=2,
                           clip_gates=spec["clip_gates"])
    T, B = 2, 2
    with dry_run("skip"):
        layer.forward(np.zeros((T, B, spec["I"]), dt))
    with dry_run("compile"):
        layer.backward(np.zeros((T, B, spec["H"]), dt))


def main(argv=None):
    compile_backward(json.loads((sys.argv[1:] if argv is None else argv)[0]))


if __name__ == "__main__":
    main()
