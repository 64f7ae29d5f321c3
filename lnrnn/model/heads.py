"""Heads: what turns a recurrent stack's outputs into a loss, its gradient, and named metrics.

Design. A model is a stack plus a head (``lnrnn.model.models.SequenceModel``); the trainer, ``lnrnn eval``,
the progress bar, ``metrics.jsonl`` and the learning-curve picture know nothing of classification:
they show whatever ``head.metrics`` names. A head reads either the last step of every sequence
(``steps = "last"``: h (B,H), each row's own last step when lengths differ) or every step
(``steps = "all"``: h (T,B,H)); the model selects those rows of y and puts dL/dh back where they came
from. A head never divides by the batch: ``forward`` returns sums over the scored units (sequences
or steps) and their count, and ``backward(cache, scale)`` gives the gradient of ``scale * loss sum``,
so a batch run in chunks (truncated BPTT) or split across processes normalizes once, by the total.

    sums, count, cache = head.forward(h, targets, valid)    # sums {metric: float}, count int
    dh = head.backward(cache, scale)                        # like h; head.grads accumulate (+=)
    head.mean(sums, count)                                  # {metric: mean value}

``valid`` is a bool array shaped like the scored units ((B,) or (T,B)): False for padded steps and
for sequences whose last step lies outside the current chunk. ``targets`` are the task's: (B,) or
(B,T) int classes (-1: not scored) for the classifier, (B,) or (B,T) floats (or (...,O)) for
regression. A generative head (the mixture density of the handwriting tasks) adds ``sample``.
The CTC head's targets are label sequences (B,Lmax), not per-step: it scores whole sequences.

Metrics: ``metrics`` names what ``sums`` holds; ``METRIC_INFO`` says how each is shown.
"""
import numpy as np

# metric -> (axis label, shown as a percentage). Heads may add their own.
METRIC_INFO = {"loss": ("loss", False), "acc": ("accuracy (%)", True), "nats_seq": ("nats per sequence", False),
               "cer": ("character error rate (%)", True)}


def check_scale(scale):
    """[sx, sy] as floats: a handwriting head's offset scale, the training offsets' standard deviations
    (``lnrnn.data.strokes.offset_scale``: two finite positive numbers by construction). ValueError for
    anything else, so that a damaged checkpoint is refused rather than drawn or read at a wrong size."""
    ok = isinstance(scale, (list, tuple, np.ndarray)) and len(scale) == 2 and all(
        isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))
        and np.isfinite(v) and v > 0 for v in scale)
    if not ok:
        raise ValueError(f"scale must be two finite positive numbers [sx, sy] (the training offsets' standard "
                         f"deviations), got {scale!r}")
    return [float(v) for v in scale]


def log_softmax(logits):
    """Stable log-softmax over the last axis."""
    z = logits - logits.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


class Head:
    """Base class: a linear map W (H,O), b (O,) of the stack's output, then the head's objective."""

    kind = "?"
    metrics = ("loss",)
    whole_sequence = False  # True: a row's loss needs all its steps at once (CTC), never a chunk of them

    def __init__(self, hidden_size, outputs, per_step=False, dtype="float32", seed=0):
        self.H, self.O = int(hidden_size), int(outputs)
        self.per_step = bool(per_step)
        self.dtype = np.dtype(dtype)
        rng = np.random.default_rng([seed, 7])  # a stream of its own, apart from the stack's
        bound = 1.0 / np.sqrt(self.H)
        self.params = {"W": rng.uniform(-bound, bound, (self.H, self.O)).astype(self.dtype),  # (H,O)
                       "b": np.zeros(self.O, self.dtype)}                                       # (O,)
        self.grads = {k: np.zeros_like(v) for k, v in self.params.items()}

    @property
    def steps(self):
        return "all" if self.per_step else "last"

    def config(self):
        return {"kind": self.kind, "outputs": self.O, "per_step": self.per_step}

    @property
    def sum_keys(self):
        """What a batch's sums hold: the metrics' sums, and 'seqs' (sequences with at least one running
        step, added by the model) for heads that report per-sequence figures."""
        return tuple(self.metrics) + ("seqs",)

    def mean(self, sums, count):
        """{metric: value} from sums over ``count`` scored units (and sums['seqs'] sequences)."""
        c = max(count, 1)
        return {m: sums[m] / c for m in self.metrics}

    def zero_grad(self):
        for g in self.grads.values():
            g[...] = 0

    def linear(self, h):
        """h (...,H) -> h W + b (...,O). A per-step head's h (T,B,H) goes to BLAS as one (T*B,H) matrix:
        NumPy's matmul of a 3-D array by a matrix multiplies T separate (B,H) blocks (a 3 x 400 synthesis
        step spent 0.2 s here at B=8 that way, against 10 ms as one product)."""
        H, O = self.params["W"].shape
        out = np.ascontiguousarray(h).reshape(-1, H) @ self.params["W"] + self.params["b"]
        return out.reshape(h.shape[:-1] + (O,))

    def linear_backward(self, h, dout):
        """Accumulate dW, db from dout (...,O); -> dh (...,H). Products over all rows at once (``linear``)."""
        H, O = self.params["W"].shape
        d2 = np.ascontiguousarray(dout).reshape(-1, O)
        self.grads["W"] += np.ascontiguousarray(h).reshape(-1, H).T @ d2
        self.grads["b"] += d2.sum(0)
        return (d2 @ self.params["W"].T).reshape(dout.shape[:-1] + (H,))

    # ---- a training update on the device (lnrnn.training.train with --device cuda) ----
    device_objective = False  # True where the head's loss runs on the device (``_device_objective``)

    def loss_and_grad_on_device(self, h, targets, valid, scale, views, sums):
        """The head's forward and backward on the device: h (N,H) device array, the rows the head reads (a
        last-step head's (B,H), a per-step head's every step, (T*B,H) in y's order), targets and valid as
        ``forward`` takes them (host arrays; valid (B,) or (T,B)), views (params, grads) {W, b} device arrays
        (grads add up, +=), sums (2,) float64 device array <- the sums of the head's two metrics ([loss, acc];
        the mixture density's [loss, nats_seq]; the CTC head's [loss, cer], its label count is ``host_sums``)
        -> dh (N,H) = scale dL/dh (device). Nothing is copied to the host: the sums travel with the update's
        metrics."""
        from lnrnn.kernels.cuda import arrays_cuda, gemm_cuda
        p, g = views
        hw = gemm_cuda.matmul(h, p["W"])                                            # (N,O) h W, bias added next
        d, rows = self._device_loss(hw, p["b"], targets, valid, scale)
        sums.copy_to_device(gemm_cuda.colsum(rows))
        gemm_cuda.matmul(h, d, out=g["W"], trans_a=True, accumulate=True)           # dW += h^T d
        arrays_cuda.add_into(g["b"], gemm_cuda.colsum(d))                           # db += sum of d's rows
        return gemm_cuda.matmul(d, p["W"], trans_b=True)                            # dh = d W^T

    def _device_loss(self, hw, b, targets, valid, scale):
        """hw (N,O) h W on the device (bias not yet added), b (O,), targets and valid (host) -> d (N,O) = scale
        dL/d(hW + b), rows (n,2) float64 per scored unit [the head's two metrics] (device arrays; their column
        sums are the batch's). The row-wise heads: ``_device_objective`` over the N rows, masked by valid."""
        from lnrnn.kernels.cuda import arrays_cuda
        N = hw.shape[0]
        mask = arrays_cuda.to_device(np.asarray(valid, self.dtype).reshape(N))      # (N,)
        d = arrays_cuda.empty((N, self.O), self.dtype)                              # (N,O) scale dL/d(hW + b)
        rows = arrays_cuda.empty((N, 2), np.float64)                                # (N,2) [loss, acc] per row
        self._device_objective(hw, b, targets, mask, scale, d, rows)
        return d, rows

    def host_sums(self, targets, valid):
        """The sums of a batch that its targets alone give (none; the CTC head's label count): the device update
        computes the rest (``SequenceModel.loss_and_grad_on_device``)."""
        return {}

    def valid_targets(self, targets, valid):
        """The head's own notion of unscored targets, combined with valid (default: none)."""
        return valid

    def count(self, targets, valid):
        """How many units forward would score: the normalizer of the loss."""
        return int(np.count_nonzero(self.valid_targets(targets, valid)))


class ClassifierHead(Head):
    """Softmax cross-entropy over C classes (outputs = C), last step or every step.

    loss = sum over scored units of logsumexp(logits) - logits[label];  acc = correct predictions.
    Per step, labels are (B,T) with -1 for unscored steps."""

    kind = "classifier"
    metrics = ("loss", "acc")

    def _labels(self, targets):
        lab = np.asarray(targets)
        return np.ascontiguousarray(lab.T) if self.per_step else lab   # (T,B) or (B,)

    def valid_targets(self, targets, valid):
        return valid & (self._labels(targets) >= 0)

    def forward(self, h, targets, valid):
        logits = self.linear(h)                                 # (B,C) or (T,B,C)
        lab = self._labels(targets)
        mask = self.valid_targets(targets, valid)
        safe = np.where(mask, lab, 0)
        logp = log_softmax(logits)
        picked = np.take_along_axis(logp, safe[..., None], axis=-1)[..., 0]
        loss = -float(picked[mask].sum(dtype=np.float64))
        correct = int(np.count_nonzero((logits.argmax(-1) == lab) & mask))
        return {"loss": loss, "acc": float(correct)}, int(mask.sum()), (h, logp, safe, mask)

    device_objective = True

    def _device_objective(self, hw, b, targets, mask, scale, d, rows):
        from lnrnn.kernels import losses_cuda
        from lnrnn.kernels.cuda import arrays_cuda
        labels = arrays_cuda.to_device(np.asarray(self._labels(targets), np.int64).reshape(-1))   # (B,) or (T*B,)
        losses_cuda.softmax_xent(hw, b, labels, mask, scale, d, rows)

    def backward(self, cache, scale):
        h, logp, safe, mask = cache
        d = np.exp(logp)                                         # softmax
        np.put_along_axis(d, safe[..., None], np.take_along_axis(d, safe[..., None], -1) - 1, -1)
        d *= (mask * scale)[..., None]
        return self.linear_backward(h, d.astype(self.dtype))


class RegressionHead(Head):
    """Squared error of O outputs, last step or every step.

    loss = sum over scored units of sum_o (pred - target)^2;  acc = units with every |error| < tolerance.
    Targets: (B,) or (B,O) last step; (B,T) or (B,T,O) per step."""

    kind = "regression"
    metrics = ("loss", "acc")

    def __init__(self, hidden_size, outputs=1, per_step=False, tolerance=0.04, dtype="float32", seed=0):
        super().__init__(hidden_size, outputs, per_step, dtype, seed)
        self.tolerance = float(tolerance)

    def config(self):
        return {**super().config(), "tolerance": self.tolerance}

    def _targets(self, targets):
        t = np.asarray(targets, dtype=self.dtype)
        if self.per_step:
            t = np.swapaxes(t, 0, 1)                            # (T,B[,O])
        return t.reshape(t.shape[:2 if self.per_step else 1] + (self.O,))

    def forward(self, h, targets, valid):
        pred = self.linear(h)                                   # (B,O) or (T,B,O)
        err = (pred - self._targets(targets)) * valid[..., None]
        loss = float(np.sum(err.astype(np.float64) ** 2))
        within = int(np.count_nonzero(np.all(np.abs(err) < self.tolerance, axis=-1) & valid))
        return {"loss": loss, "acc": float(within)}, int(np.count_nonzero(valid)), (h, err)

    device_objective = True

    def _device_objective(self, hw, b, targets, mask, scale, d, rows):
        from lnrnn.kernels import losses_cuda
        from lnrnn.kernels.cuda import arrays_cuda
        target = np.ascontiguousarray(self._targets(targets).reshape(-1, self.O))     # (B,O) or (T*B,O)
        losses_cuda.squared_error(hw, b, arrays_cuda.to_device(target), mask, scale, self.tolerance, d, rows)

    def backward(self, cache, scale):
        h, err = cache
        return self.linear_backward(h, (2 * scale * err).astype(self.dtype))


class MDNHead(Head):
    """Mixture density head (Graves 2013 sec. 4) on every step: M bivariate Gaussians over the next
    pen offset and an end-of-stroke Bernoulli, K = 6M + 1 outputs (lnrnn.kernels.mdn: layout,
    transforms, NLL and its gradient). Targets (B,T,3): the next point (dx, dy, pen).

    loss = negative log-likelihood in nats per point; nats_seq = the same summed per sequence.
    ``scale`` (sx, sy): the data's offset normalization, kept so samples can be drawn in its units."""

    kind = "mdn"
    metrics = ("loss", "nats_seq")

    def __init__(self, hidden_size, components=20, per_step=True, scale=(1.0, 1.0), outputs=None,
                 dtype="float32", seed=0):
        if not per_step:
            raise ValueError("the mixture density head scores every step (per_step=True)")
        self.M = int(components)
        if self.M < 1:
            raise ValueError(f"components must be at least 1, got {components}")
        K = 6 * self.M + 1
        if outputs is not None and int(outputs) != K:
            raise ValueError(f"a mixture of {self.M} component{'s' * (self.M != 1)} has {K} outputs, not {outputs}")
        super().__init__(hidden_size, K, True, dtype, seed)
        self.scale = check_scale(scale)
        self.clip_output = None  # Graves's element-wise clip of dL/d(outputs) per point (training setting)

    def config(self):
        return {"kind": self.kind, "components": self.M, "per_step": True, "scale": self.scale}

    def mean(self, sums, count):
        return {"loss": sums["loss"] / max(count, 1), "nats_seq": sums["nats_seq"] / max(sums.get("seqs", 0), 1)}

    def forward(self, h, targets, valid):
        from lnrnn.kernels.mdn import mdn_forward
        T, B, _ = h.shape
        yhat = np.ascontiguousarray(self.linear(h).reshape(T * B, self.O))           # (T*B,K)
        tg = np.ascontiguousarray(np.swapaxes(np.asarray(targets, self.dtype), 0, 1).reshape(T * B, 3))
        v = valid.reshape(T * B).astype(self.dtype)                                   # (T*B,)
        nll, saved = mdn_forward(yhat, tg, v, self.M)
        total = float(nll.sum(dtype=np.float64))
        return {"loss": total, "nats_seq": total}, int(np.count_nonzero(v)), (h, yhat, tg, saved)

    device_objective = True

    def _device_objective(self, hw, b, targets, mask, scale, d, rows):
        """The mixture density's NLL and its gradient (mdn_cuda) in place of the base class's row kernels:
        rows[:, 0] <- each point's NLL, rows[:, 1] the same (nats_seq adds the same NLL up, per sequence)."""
        from lnrnn.kernels import losses_cuda, mdn_cuda
        from lnrnn.kernels.cuda import arrays_cuda
        N = hw.shape[0]
        losses_cuda.add_bias(hw, b)                                                  # (N,K) yhat
        tg = np.ascontiguousarray(np.swapaxes(np.asarray(targets, self.dtype), 0, 1).reshape(N, 3))
        tg = arrays_cuda.to_device(tg)                                               # (N,3) in y's (T,B) order
        nll, saved = mdn_cuda.mdn_forward(hw, tg, mask, self.M)                      # (N,)
        if self.clip_output:  # each point's own derivatives clipped, then normalized (``backward``)
            d.copy_to_device(mdn_cuda.mdn_backward(np.ones(N, self.dtype), saved, hw, tg, self.M))
            losses_cuda.clip_and_scale(d, self.clip_output, scale)
        else:
            d.copy_to_device(mdn_cuda.mdn_backward(np.full(N, scale, self.dtype), saved, hw, tg, self.M))
        losses_cuda.nll_rows(nll, rows)

    def backward(self, cache, scale):
        from lnrnn.kernels.mdn import mdn_backward
        h, yhat, tg, saved = cache
        if self.clip_output:  # clip each point's own derivatives, then normalize (Graves 2013, sec. 4.2)
            d = mdn_backward(np.ones(yhat.shape[0], yhat.dtype), saved, yhat, tg, self.M)
            np.clip(d, -self.clip_output, self.clip_output, out=d)
            d *= yhat.dtype.type(scale)
        else:
            d = mdn_backward(np.full(yhat.shape[0], scale, yhat.dtype), saved, yhat, tg, self.M)
        return self.linear_backward(h, d.reshape(h.shape[0], h.shape[1], self.O))

    def sample(self, out, rng, bias=0.0):
        """out (B,K) the head's linear output of one step -> the next points (B,3), normalized units."""
        from lnrnn.kernels.mdn import mdn_sample
        return mdn_sample(out, self.M, rng, bias)


class CTCHead(Head):
    """Connectionist temporal classification (Graves et al. 2006) on every step: C = outputs classes, the
    blank is class 0 (``lnrnn.kernels.codes.CTC_BLANK``), labels are 1..C-1 (lnrnn.kernels.ctc: the
    recursion, its gradient, and the rule for labels that cannot fit: loss 0 and gradient 0).
    Targets (B,Lmax) int: each row's label sequence, padded at its end with -1. valid (T,B) gives each
    row's input length (its count of valid steps; they must come first). The loss of a row needs its
    whole sequence: run it without truncated BPTT (a chunk's loss is not a part of the row's).

    loss = -log p(label | x) in nats per sequence (rows with at least one step; sums['loss'] adds them);
    cer  = character (label) error rate of the best-path transcription: sums['cer'] holds its edit
    distances to the labels, sums['chars'] the labels' length.

    ``whole_sequence``: the model hands it every step of a row at once (``lnrnn.model.models``). ``scale``
    (optional, [sx, sy]): a handwriting reader's offset scale, kept in its config as the mixture density
    head keeps it, so that new lines are normalized as the training lines were (``lnrnn.api.read``)."""

    kind = "ctc"
    metrics = ("loss", "cer")
    whole_sequence = True

    def __init__(self, hidden_size, outputs, per_step=True, dtype="float32", seed=0, scale=None):
        if not per_step:
            raise ValueError("the CTC head scores every step (per_step=True)")
        if int(outputs) < 2:
            raise ValueError(f"a CTC head needs the blank and at least one label class, got outputs={outputs}")
        super().__init__(hidden_size, outputs, True, dtype, seed)
        self.scale = None if scale is None else check_scale(scale)

    def config(self):
        return {**super().config(), **({"scale": self.scale} if self.scale is not None else {})}

    @property
    def sum_keys(self):
        return ("loss", "cer", "chars", "seqs")

    def mean(self, sums, count):
        return {"loss": sums["loss"] / max(count, 1), "cer": sums["cer"] / max(sums.get("chars", 0), 1)}

    def _rows(self, targets, valid):
        """-> labels (B,Lmax) int64, input_lengths (B,), label_lengths (B,); ValueError for a label with a
        gap of -1 inside it, a class outside 1..C-1, or valid steps after a padded one."""
        labels = np.ascontiguousarray(np.asarray(targets, dtype=np.int64).reshape(valid.shape[1], -1))
        ll = np.count_nonzero(labels >= 0, axis=1)
        inside = np.arange(labels.shape[1])[None, :] < ll[:, None]
        if np.any((labels >= 0) != inside):
            raise ValueError("CTC labels must be padded at their end with -1, with no -1 inside a label")
        if np.any(labels[inside] < 1) or np.any(labels[inside] >= self.O):
            raise ValueError(f"CTC labels are classes 1..{self.O - 1} (0 is the blank)")
        il = np.count_nonzero(valid, axis=0).astype(np.int64)
        if np.any(valid != (np.arange(valid.shape[0])[:, None] < il[None, :])):
            raise ValueError("the CTC head reads each row's valid steps as its first ones (right padding only)")
        return labels, il, ll.astype(np.int64)

    def count(self, targets, valid):
        return int(np.count_nonzero(np.count_nonzero(valid, axis=0)))

    def forward(self, h, targets, valid):
        from lnrnn.kernels.ctc import ctc_forward
        from lnrnn.model.decode import best_path_array
        from lnrnn.textmetrics import label_edit_distances
        labels, il, ll = self._rows(targets, valid)
        logits = np.ascontiguousarray(self.linear(h))                                # (T,B,C)
        loss, saved = ctc_forward(logits, labels, il, ll)
        rows = np.flatnonzero(il > 0)
        edits = label_edit_distances(labels, ll, *best_path_array(saved[0], il))     # saved[0]: logp (T,B,C)
        sums = {"loss": float(loss[rows].sum(dtype=np.float64)), "cer": float(edits[rows].sum()),
                "chars": float(ll[rows].sum())}
        return sums, len(rows), (h, saved, labels, il, ll)

    def log_probs(self, h, lengths):
        """h (T,B,H), lengths (B,) -> (T,B,C) the log-softmax of the logits over each row's steps (0 past
        them), computed by the kernel ``forward`` scores with (here with no labels), so a decoder reads the
        very values the metrics were computed from."""
        from lnrnn.kernels.ctc import ctc_forward
        B = h.shape[1]
        logits = np.ascontiguousarray(self.linear(h))                                # (T,B,C)
        _, saved = ctc_forward(logits, np.full((B, 1), -1, np.int64), np.asarray(lengths, np.int64),
                               np.zeros(B, np.int64))
        return saved[0]

    device_objective = True

    def host_sums(self, targets, valid):
        labels, il, ll = self._rows(targets, valid)
        return {"chars": float(ll[il > 0].sum())}

    def _device_loss(self, hw, b, targets, valid, scale):
        """The CTC loss of whole rows on the device (``ctc_cuda``): hw (T*B,C) in y's (T,B) order, valid (T,B)
        -> d (T*B,C) = scale dL/dlogits, rows (B,2) float64 [loss, edit distance of the best path] per row (0
        on rows of no step; ``losses_cuda.ctc_rows``). Labels and lengths are checked as ``forward`` checks
        them and uploaded once; the forward's logp serves the loss, the gradient and the transcription."""
        from lnrnn.kernels import ctc_cuda, losses_cuda
        from lnrnn.kernels.cuda import arrays_cuda
        T, B = valid.shape
        labels, il, ll = (arrays_cuda.to_device(a) for a in self._rows(targets, valid))  # (B,Lmax), (B,), (B,)
        losses_cuda.add_bias(hw, b)                                                  # (T*B,C) the logits
        loss, saved = ctc_cuda.ctc_forward(hw.reshape(T, B, self.O), labels, il, ll)
        rows = arrays_cuda.empty((B, 2), np.float64)
        losses_cuda.ctc_rows(loss, saved[0], labels, il, ll, rows)
        dloss = arrays_cuda.fill(arrays_cuda.empty((B,), self.dtype), scale)        # (B,) every row's scale
        d = ctc_cuda.ctc_backward(dloss, saved, labels, il, ll)                      # (T,B,C)
        return d.reshape(T * B, self.O), rows

    def backward(self, cache, scale):
        from lnrnn.kernels.ctc import ctc_backward
        h, saved, labels, il, ll = cache
        d = ctc_backward(np.full(labels.shape[0], scale, self.dtype), saved, labels, il, ll)    # (T,B,C)
        return self.linear_backward(h, d)


HEADS = {"classifier": ClassifierHead, "regression": RegressionHead, "mdn": MDNHead, "ctc": CTCHead}


def make_head(config, hidden_size, dtype="float32", seed=0):
    """A head from its config dict ({'kind': ..., 'outputs': ..., ...}); ValueError for an unknown kind."""
    if not isinstance(config, dict):
        raise ValueError(f"a head's config is an object naming its kind, not {config!r}")
    cfg = dict(config)
    kind = cfg.pop("kind", None)
    if kind not in HEADS:
        raise ValueError(f"unknown head {kind!r}; expected one of {', '.join(HEADS)}")
    return HEADS[kind](hidden_size, dtype=dtype, seed=seed, **cfg)
