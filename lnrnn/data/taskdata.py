"""A built sequence task: its arrays and what the model needs to know of them. Every reader of
``lnrnn.data.tasks`` (and ``lnrnn.data.arrays``, your own data) returns one; the stroke tasks return
``lnrnn.data.strokes.StrokeTask``, which has the same attributes where they apply."""
from dataclasses import dataclass, field
from typing import Optional

import numpy as np


@dataclass
class TaskData:
    """A built task. x_*: (N, T, I) in a compact dtype; y_*: see ``objective``/``per_step``."""

    spec: dict                 # how to rebuild it (saved in checkpoints)
    description: str           # one sentence for the user
    x_train: np.ndarray        # (N, T, I)
    y_train: np.ndarray        # (N,) int64 class, (N, T) int64 per step (-1: not scored), or (N,) float target
    x_val: np.ndarray
    y_val: np.ndarray
    num_classes: int           # C; 1 for regression
    objective: str = "ce"      # 'ce' softmax cross-entropy | 'mse' squared error
    per_step: bool = False     # head on every step (copy) instead of the last one
    scale: float = 1.0         # x is multiplied by this when batched (1/255 for uint8 pixels)
    extra: dict = field(default_factory=dict)  # tolerance (adding); constant_prefix: every sequence begins
                                               # with the same inputs (blank rows), see --state-noise
    head: Optional[dict] = None  # the head config this task needs (lnrnn.model.heads); None: from objective

    @property
    def steps(self):
        return self.x_train.shape[1]

    @property
    def input_size(self):
        return self.x_train.shape[2]

    def size(self, which):
        return len(self.x_train if which == "train" else self.x_val)

    def batch(self, which, idx, dtype=np.float32):
        """-> x (T, B, I) contiguous ``dtype``, labels for samples ``idx`` of 'train' or 'val'."""
        x, y = (self.x_train, self.y_train) if which == "train" else (self.x_val, self.y_val)
        xb = np.ascontiguousarray(x[idx].transpose(1, 0, 2), dtype=dtype)
        if self.scale != 1.0:
            xb *= np.dtype(dtype).type(self.scale)
        return xb, y[idx]
