"""Planted bugs in the window layer's own norm (``window_norm``: lnrnn/model/window.py, lnrnn/model/models.py,
lnrnn/training/plan.py), each caught by tests/model/test_synthesis.py (format: tests/mutants/mutants.py).

    python tests/mutants/run.py --only 'window-norm-*'
"""

SYN = "tests/model/test_synthesis.py"
WIN = "lnrnn/model/window.py"

MUTANTS = [
    dict(name="window-norm-ignored-by-the-first-layer", file=WIN,
         old="        first = WindowLayer(cell, window_norm, I, H, C, K, rng, **kw)\n",
         new="        first = WindowLayer(cell, norm, I, H, C, K, rng, **kw)\n",
         tests=[SYN],
         why="--window-norm is accepted and saved but the window's layer keeps the stack's norm"),
    dict(name="window-norm-applied-to-every-layer", file=WIN,
         old="        return [first] + [RecurrentLayer(cell, norm, I + H + first.C, H, rng=rng, **kw)",
         new="        return [first] + [RecurrentLayer(cell, window_norm, I + H + first.C, H, rng=rng, **kw)",
         tests=[SYN],
         why="the layers above the window lose the cell's norm"),
    dict(name="window-norm-not-saved-in-the-config", file=WIN,
         old="        if L1.norm != norm:\n            self.config[\"window_norm\"] = L1.norm\n",
         new="        if L1.norm != norm:\n            pass\n",
         tests=[SYN],
         why="a checkpoint forgets the window layer's norm: resume and sampling rebuild another model"),
    dict(name="window-norm-dropped-by-build-model", file="lnrnn/model/models.py",
         old='                            window_norm=cfg.get("window_norm"), ',
         new='                            window_norm=None, ',
         tests=[SYN],
         why="a saved window_norm is not read back when the model is rebuilt"),
    dict(name="window-norm-without-a-window-accepted", file="lnrnn/training/plan.py",
         old="    if cfg.window_norm is not None and not K:\n",
         new="    if False:\n",
         tests=[SYN, "tests/training/test_values_plan.py"],
         why="--window-norm on a run with no window is silently ignored"),
    dict(name="window-norm-default-keeps-ln-on-the-window-layer", file="lnrnn/config.py",
         old='WINDOW_NORM_DEFAULT = {"ln": "none"}\n',
         new='WINDOW_NORM_DEFAULT = {}\n',
         tests=[SYN, "tests/training/test_values_plan.py"],
         why="an LN-LSTM synthesis network gets LN on its window layer again: a window that does not align"),
]
