"""A model is a recurrent stack plus a head (``lnrnn.model.heads``).

Design. ``SequenceModel`` runs the stack over a batch (inputs, targets, optional per-sequence
lengths), hands the head the rows it reads (each sequence's last step, or every running step), and
puts the head's gradient back where those rows came from. It knows nothing of classes or densities:
losses and metrics are whatever the head names. All parameters, head included, are views of one flat
buffer and all gradients of another (``model.flat``: (params, grads) ``lnrnn.model.flat.FlatArrays``), so
the optimizer, clipping and an allreduce each touch one array.

    model = build_model(stack_config, head_config)          # or SequenceModel(stack, head)
    m = model.loss_and_grad(x, targets, lengths)            # {'loss': mean, 'acc': ...}; fills grads
    m = model.loss_and_grad(x, targets, tbptt=100)          # truncated BPTT in chunks of 100 steps
    sums, count = model.loss_sums(x, targets)               # inference, sums for exact averaging
    h = model.last_outputs(x, lengths=lengths)              # inference: each row's last output (B,out)
    means = model.evaluate(batches_of(x, targets, batch_size=500))
    out_t, state = model.step(x_t, state, t)                # one step: the head's linear output (B,O)

Shapes: x (T,B,I) time-major; targets as the head takes them (per sequence (B,...) or per step
(B,T,...)); lengths (B,) int or None (every sequence runs T steps).

Initial-state noise (``state_noise`` > 0; Cooijmans et al. 2016, sec. 5.1): every batch starts
from h0, c0 ~ N(0, state_noise^2) per example and layer instead of zeros, in training and evaluation.
Where every sequence begins with the same inputs (the blank top rows of MNIST) a zero initial state
makes every row of the batch identical for the first steps, so BatchNorm's per-step batch variance
is exactly 0 and its backward multiplies by gamma / sqrt(eps) at each such step (float32 overflows
within a few dozen); distinct initial states keep the rows apart.

Inference (``loss_sums``, ``evaluate``, ``last_outputs``, ``step``) runs the stack with keep=False
(``lnrnn.model.layers``: no backward follows, so the plain and LN cells run their infer kernels, which save
no BPTT activations, and no layer keeps anything), over time chunks of at most ``infer_chunk_steps(B)``
steps from the carried state, so that what a forward still allocates (y, a wide input's x Wx, and the
BN cells' and masked LSTMs' saved activations, 1.6 GB for a whole B256 T784 batch) stays a chunk's
size; the figures equal a whole-sequence forward's to float rounding (``tests/model/test_eval_chunks.py``).
Here ``training`` means both BatchNorm's batch statistics and that a backward follows: the model
passes keep=training.

A bidirectional stack (``RecurrentStack(bidirectional=True)``): a last-step head reads each row's forward
columns at its last step and its backward columns at step 0 (``_select``); per-step heads read every
step's [forward | backward]; it runs whole sequences (truncated BPTT is refused, inference is one chunk).

Truncated BPTT: the sequence runs in chunks of ``tbptt`` steps; each chunk starts from the state the
previous one ended in (detached: no gradient crosses a chunk boundary) and its backward adds into
the same gradients; the loss is normalized once by the whole batch's count, so with ``tbptt >= T``
the result is exactly the whole-sequence one, and the forward values agree for any chunk size.

Names: ``params``/``grads``/``buffers`` merge the stack's dicts (prefix 'rnn.') and the head's
('head.'); they are the very arrays of the stack and head.
"""
import numpy as np

from lnrnn.config import INFER_CHUNK_ROWS
from lnrnn.model.flat import FlatArrays, repack
from lnrnn.model.heads import log_softmax, make_head  # noqa: F401  (log_softmax re-exported)
from lnrnn.model.functional import check_lengths, running_mask

STACK_KEYS = ("cell", "norm", "input_size", "hidden_size", "num_layers", "dtype", "forget_bias")
# the synthesis network's (lnrnn.model.window): K Gaussians, C characters, the window layer's norm where it
# is not the stack's
WINDOW_KEYS = ("window", "alphabet_size", "window_norm")


class SequenceModel:
    """A RecurrentStack (or anything with its interface) plus a head; see the module docstring."""

    def __init__(self, stack, head, state_noise=0.0, noise_seed=0):
        self.stack, self.head = stack, head
        self.last_count = 0  # scored units (sequences or steps) of the last loss_and_grad
        self.last_sums = {}  # the last update's raw sums {head.sum_keys: float} (the trainer adds them up)
        self.last_host_sums = {}  # those of a device update's batch that the host knows (``head.host_sums``)
        self.dtype = np.dtype(head.dtype)
        if not (state_noise >= 0 and np.isfinite(state_noise)):
            raise ValueError(f"state_noise must be a non-negative standard deviation, not {state_noise}")
        self.state_noise, self.noise_seed = float(state_noise), int(noise_seed)
        self._noise_calls = 0
        self.config = {**{k: stack.config[k] for k in STACK_KEYS}, "head": head.config(),
                       "state_noise": self.state_noise}
        for k in ("skip", "bidirectional"):
            if stack.config.get(k):
                self.config[k] = True
        # (out,) True for the columns of y a backward direction gives (a bidirectional stack's), else None
        self.reverse_columns = getattr(stack, "reverse_columns", None) if getattr(stack, "bidirectional", False) \
            else None
        # a stack that reads a text (lnrnn.model.window.WindowStack): every run of it takes text=
        self.conditioned = bool(getattr(stack, "conditioned", False))
        for k in WINDOW_KEYS:
            if k in stack.config:
                self.config[k] = stack.config[k]
        self.flat = (repack(self._leaves("params")), repack(self._leaves("grads")))
        if hasattr(stack, "flat"):
            stack.flat = None

    def _leaves(self, attr):
        if hasattr(self.stack, "param_leaves"):
            inner = self.stack.param_leaves("rnn.") if attr == "params" else self.stack.grad_leaves("rnn.")
        else:  # a stack with plain dicts (tests' NumPy stand-ins)
            inner = [("rnn.", getattr(self.stack, attr))]
        return inner + [("head.", getattr(self.head, attr))]

    # ---- named views ----
    @property
    def params(self):
        return {**{"rnn." + k: v for k, v in self.stack.params.items()},
                **{"head." + k: v for k, v in self.head.params.items()}}

    @property
    def grads(self):
        return {**{"rnn." + k: v for k, v in self.stack.grads.items()},
                **{"head." + k: v for k, v in self.head.grads.items()}}

    @property
    def buffers(self):
        return {"rnn." + k: v for k, v in getattr(self.stack, "buffers", {}).items()}

    @property
    def metrics(self):
        return self.head.metrics

    def num_params(self):
        return int(self.flat[0].data.size)

    def zero_grad(self):
        self.flat[1].data.fill(0)

    def load_arrays(self, arrays):
        """Copy params (in place, shapes must match) and buffers (BN statistics) into the model."""
        own_p, own_b = self.params, self.buffers
        names = set(own_p) | set(own_b)
        if set(arrays) != names:
            raise ValueError(f"array names differ: {sorted(set(arrays) ^ names)[:5]}")
        for k, p in own_p.items():
            if p.shape != arrays[k].shape:
                raise ValueError(f"{k}: shape {arrays[k].shape} vs {p.shape}")
            p[...] = arrays[k]
        if own_b:
            self.stack.load_buffers({k[len("rnn."):]: arrays[k] for k in own_b})

    # ---- which rows the head reads ----
    def _select(self, y, T_total, lengths, t0):
        """-> (h, valid, where): the head's input rows of y (T,B,H) (host), the bool mask of rows it
        scores, and what ``_scatter`` needs to place dL/dh back into a (T,B,H) gradient.

        A last-step head of a bidirectional stack reads, per row, the forward directions' columns at the
        row's last valid step and the backward directions' at its first step (step 0: the backward
        direction's last, after it has read the whole row reversed); a per-step head every step's
        [forward | backward]."""
        T, B = y.shape[0], y.shape[1]
        L = np.full(B, T_total, np.int64) if lengths is None else lengths
        if self.head.steps == "all":
            valid = running_mask(L - t0, T, bool)                            # (T,B)
            return y, valid, None
        last = L - 1 - t0                                                    # each row's last step, chunk time
        valid = (last >= 0) & (last < T)                                     # (B,)
        idx = np.clip(last, 0, T - 1)
        if self.reverse_columns is not None:  # whole sequences only (t0 = 0): see the docstring
            return np.where(self.reverse_columns, y[0], y[idx, np.arange(B)]), valid, idx
        return y[idx, np.arange(B)], valid, idx

    def _scatter(self, dh, y_shape, where):
        if where is None:
            return dh
        dy = np.zeros(y_shape, self.dtype)
        rows = np.arange(y_shape[1])
        if self.reverse_columns is not None:  # forward columns at the last step, backward ones at step 0
            rev = self.reverse_columns
            dy[where, rows] = np.where(rev, 0, dh)
            dy[0] += np.where(rev, dh, 0)
            return dy
        dy[where, rows] = dh
        return dy

    def _text(self, text):
        """The text argument of a stack run: {'text': text} for a conditioned stack (which needs one),
        {} otherwise (which must not get one)."""
        if self.conditioned:
            if text is None:
                raise ValueError("this model writes a given text: pass text=(codes (B,U), lengths (B,))")
            return {"text": text}
        if text is not None:
            raise ValueError("this model reads no text (it was not trained with an attention window)")
        return {}

    def _run(self, x, state, training, lengths, t0, text=None):
        """The stack on one chunk -> (y on the host, final states, y where it lives). training=False
        is inference: nothing is kept for a backward (keep=False)."""
        stack = self.stack
        if self.conditioned:
            y, states = stack.forward(x, state, training=training, lengths=lengths, t0=t0, keep=training,
                                      **self._text(text))
            return y, states, y
        self._text(text)
        if getattr(stack, "device", "cpu") != "cuda":
            y, states = stack.forward(x, state, training=training, lengths=lengths, t0=t0, keep=training)
            return y, states, y
        y_dev, states = stack.forward(x, state, training=training, lengths=lengths, t0=t0, on_device=True,
                                      keep=training)
        k = stack.layers[0]._k
        return k.to_host(y_dev), k.to_host(states), y_dev

    def _run_last_on_device(self, x, training, state=None):
        """'cuda', a last-step head, one whole chunk, no lengths: only y[T-1] (B,H) comes back."""
        y_dev, _ = self.stack.forward(x, state, training=training, on_device=True, keep=training)
        k = self.stack.layers[0]._k
        return k.to_host(y_dev[y_dev.shape[0] - 1]), y_dev

    def _fast_last(self, lengths, chunked):
        return (not self.conditioned and getattr(self.stack, "device", "cpu") == "cuda" and self.head.steps == "last"
                and lengths is None and not chunked and not getattr(self.stack, "skip", False)
                and self.reverse_columns is None)

    # ---- a training update on the device (lnrnn.training.train with --device cuda) ----
    def device_refusal(self):
        """None when ``loss_and_grad_on_device`` can run this model, else why not (a phrase): a stack on
        'cuda' (one direction or both, skip connections and the synthesis network's window included), and a
        head whose loss runs there (classifier, regression, mixture density, CTC; last step or every step)."""
        if getattr(self.stack, "device", "cpu") != "cuda":
            return "the stack runs on the CPU"
        if not self.head.device_objective:
            return f"the {self.head.kind} head runs on the host"
        return None

    def device_buffers(self):
        """(params, grads) ``FlatArrays`` of device copies of ``flat``, made at the first call (the host
        parameters uploaded once); while an update runs on the device they are the parameters' home, and
        ``pull_params`` copies them back to ``flat[0]`` for whatever reads the host ones."""
        if getattr(self, "_device_flat", None) is None:
            from lnrnn.kernels.cuda import arrays_cuda
            p, g = self.flat
            self._device_flat = (FlatArrays(arrays_cuda.to_device(p.data), p.layout),
                                 FlatArrays(arrays_cuda.zeros(g.data.shape, g.data.dtype), g.layout))
        return self._device_flat

    def pull_params(self):
        """Copy the device parameters (``device_buffers``) to the host ones, ``flat[0]`` (one copy), and the
        BatchNorm statistics kept on the device to the layers' buffers, which are their home from then on (a
        host forward may update them): the next device update uploads them again."""
        if getattr(self, "_device_flat", None) is not None:
            self._device_flat[0].data.copy_to_host(self.flat[0].data)
        for layer, stats in zip(self.stack.layers, getattr(self, "_device_stats", None) or ()):
            for n, a in stats.items():
                a.copy_to_host(layer.buffers[n])
        self._device_stats = None

    def _stats_on_device(self, T):
        """[{name: device array}] per layer: the BN statistics on the device, at least T rows (uploaded from the
        host at the first update after ``pull_params``; a longer batch fetches them, grows the host ones and
        uploads them again)."""
        from lnrnn.kernels.cuda import arrays_cuda
        stats = getattr(self, "_device_stats", None)
        if stats is not None and all(a.shape[0] >= T for d in stats for a in d.values()):
            return stats
        if stats is not None:
            self.pull_params()
        for layer in self.stack.layers:
            layer._grow_buffers(T)
        self._device_stats = [{n: arrays_cuda.to_device(a) for n, a in layer.buffers.items()}
                              for layer in self.stack.layers]
        return self._device_stats

    def _set_device_views(self, on, T=1):
        """Point the stack's layers and the head at their device views (``RecurrentLayer.device_views``), or back."""
        p, g = self.device_buffers()
        stats = self._stats_on_device(T) if on and any(layer.buffers for layer in self.stack.layers) else None
        for j, layer in enumerate(self.stack.layers):
            pre = "rnn." + self.stack._name(j)
            views = ({n: p.views[pre + n] for n in layer.params}, {n: g.views[pre + n] for n in layer.grads})
            layer.device_views = (views + ((stats[j],) if stats else ())) if on else None

    def loss_and_grad_on_device(self, x, targets, sums, noise_key=None, lengths=None, tbptt=None, text=None):
        """``loss_and_grad`` with the parameters and gradients of ``device_buffers`` (``device_refusal`` says
        which models): the device gradients are zeroed and filled, sums (2,) float64 device array <- the
        batch's sums of the head's two metrics; nothing is copied to the host. lengths, tbptt as
        ``loss_and_grad`` takes them: a last-step head reads each row's last valid step (``take_steps``), a
        per-step head every step as rows of (T*B,H) with the padded ones masked; chunks of ``tbptt`` steps
        carry their final states to the next chunk on the device; text: a conditioned model's, as there (the
        synthesis network's window and layers run on the device, ``WindowStack``). A bidirectional stack joins
        and reverses its directions on the device (``RecurrentStack``), and a last-step head reads its backward
        columns at step 0 (``_select``); the CTC head scores whole rows (``CTCHead._device_loss``). -> the
        batch's scored count (``last_count``; the caller sets ``last_sums`` once it has fetched sums, adding
        ``last_host_sums``: those the batch gives on the host, ``head.host_sums``)."""
        from lnrnn.kernels.cuda import arrays_cuda
        T, B = x.shape[0], x.shape[1]
        text_kw = self._text(text)
        state = self._update_noise(B, noise_key) if self.state_noise else None
        lengths = check_lengths(lengths, T, B)
        chunk = T if not tbptt or tbptt >= T else int(tbptt)
        if chunk < T and getattr(self.head, "whole_sequence", False):
            raise ValueError(f"the {self.head.kind} head scores whole sequences; run it without truncated BPTT")
        if chunk < T and self.reverse_columns is not None:
            raise ValueError("a bidirectional stack reads whole sequences; run it without truncated BPTT")
        last = self.head.steps == "last"
        L = np.full(B, T, np.int64) if lengths is None else lengths
        valid_all = L > 0 if last else running_mask(L, T, bool)                      # (B,) or (T,B)
        self.last_count = self.head.count(targets, valid_all)
        self.last_host_sums = self.head.host_sums(targets, valid_all)
        scale = 1.0 / max(self.last_count, 1)
        p, g = self.device_buffers()
        arrays_cuda.fill(g.data, 0)
        part = arrays_cuda.empty((2,), np.float64) if chunk < T else sums            # (2,) one chunk's sums
        if chunk < T:
            arrays_cuda.fill(sums, 0)
        views = ({n: p.views["head." + n] for n in self.head.params},
                 {n: g.views["head." + n] for n in self.head.grads})
        # (out,) 1 where a column of y is a backward direction's (a last-step head reads it at step 0)
        rev = None if self.reverse_columns is None or not last else \
            arrays_cuda.to_device(self.reverse_columns.astype(np.int64))
        try:
            for t0 in range(0, T, chunk):
                t1 = min(t0 + chunk, T)
                Tc = t1 - t0
                # BN rows past max_steps grow chunk by chunk, each a copy of the last row as the chunks before
                # left it (RecurrentLayer._buffer_rows on the CPU)
                self._set_device_views(True, t1)
                lc = None if lengths is None else np.clip(lengths - t0, 0, Tc)
                y_dev, state = self.stack.forward(np.ascontiguousarray(x[t0:t1]), state, training=True,
                                                  on_device=True, lengths=lc, t0=t0, keep=True, **text_kw)
                tg = _chunk_targets(targets, self.head, t0, t1)
                if last:
                    end = L - 1 - t0                                                 # (B,) each row's last step
                    valid = (end >= 0) & (end < Tc)                                  # (B,) in this chunk
                    steps = arrays_cuda.to_device(np.clip(end, 0, Tc - 1).astype(np.int64))
                    if rev is not None:   # forward columns at each row's last step, backward ones at step 0
                        h = arrays_cuda.take_steps(y_dev, steps, rev)                # (B,H)
                    else:
                        h = y_dev[Tc - 1] if lengths is None else arrays_cuda.take_steps(y_dev, steps)   # (B,H)
                else:
                    valid = running_mask(L - t0, Tc, bool)                           # (Tc,B)
                    h = arrays_cuda.rows2d(y_dev)                                    # (Tc*B,H)
                dh = self.head.loss_and_grad_on_device(h, tg, valid, scale, views, part)
                if part is not sums:
                    arrays_cuda.add_into(sums, part)
                dy = arrays_cuda.put_steps(dh, steps, Tc, rev) if last else dh.reshape(y_dev.shape)   # (Tc,B,H)
                self.stack.backward(dy, on_device=True)
                state = [tuple(arrays_cuda.copy(a) for a in s_) for s_ in state]   # detached, on the device
        finally:
            self._set_device_views(False)
        return self.last_count

    # ---- initial-state noise (Cooijmans et al. 2016, sec. 5.1) ----
    def noise_state(self, B, key):
        """Initial states with every h0 and c0 entry drawn from N(0, state_noise^2), from a generator
        seeded by (noise_seed, *key): the same key gives the same draw (a resumed run redraws exactly);
        None when state_noise is 0 (zero states)."""
        if not self.state_noise:
            return None
        rng = np.random.default_rng([self.noise_seed, *key])
        return [tuple((self.state_noise * rng.standard_normal((B, layer.H))).astype(self.dtype)
                      for _ in range(layer.nstate)) for layer in self.stack.layers]

    def _update_noise(self, B, noise_key):
        """The initial states of one update: the draw for ``noise_key`` (the trainer's update number) or,
        without one, for the next value of a counter of calls."""
        if noise_key is None:
            noise_key, self._noise_calls = self._noise_calls, self._noise_calls + 1
        return self.noise_state(B, (1, int(noise_key)))

    # ---- training and evaluation ----
    def scored_count(self, targets, lengths, T, B):
        """How many units (sequences or steps) the head scores in a batch of B sequences of T steps."""
        lengths = check_lengths(lengths, T, B)
        L = np.full(B, T, np.int64) if lengths is None else lengths
        return self.head.count(targets, running_mask(L, T, bool) if self.head.steps == "all" else L > 0)

    def loss_and_grad(self, x, targets, lengths=None, tbptt=None, state=None, noise_key=None, total=None,
                      text=None):
        """Zero the gradients, run forward and backward (in chunks of ``tbptt`` steps when given)
        -> {metric: mean over the batch's scored units}. ``state``: initial states (None: zeros, or
        noise when state_noise > 0, drawn for ``noise_key`` (an int: the trainer passes the update
        number) or, without one, for a counter of calls). ``total``: the loss's normalizer when this
        batch is one rank's shard of a global batch (``lnrnn.training.distributed``: the global batch's
        ``scored_count``, so that the ranks' gradients sum to the global mean's); None: its own count.
        ``text``: (codes (B,U), lengths (B,)) of each row's text, for a conditioned model (and only there)."""
        self._text(text)
        self.zero_grad()
        T, B = x.shape[0], x.shape[1]
        if state is None and self.state_noise:
            state = self._update_noise(B, noise_key)
        lengths = check_lengths(lengths, T, B)
        chunk = T if not tbptt or tbptt >= T else int(tbptt)
        if chunk < T and getattr(self.head, "whole_sequence", False):
            raise ValueError(f"the {self.head.kind} head scores whole sequences; run it without truncated BPTT")
        if chunk < T and self.reverse_columns is not None:
            raise ValueError("a bidirectional stack reads whole sequences; run it without truncated BPTT")
        L = np.full(B, T, np.int64) if lengths is None else lengths
        valid_all = running_mask(L, T, bool) if self.head.steps == "all" else L > 0
        self.last_count = self.head.count(targets, valid_all)   # scored units of this batch
        total = max(self.last_count if total is None else int(total), 1)
        scale = 1.0 / total
        sums = dict.fromkeys(self.head.sum_keys, 0.0)
        sums["seqs"] = float(np.count_nonzero(L > 0))
        self.last_sums = sums  # the batch's raw sums (the trainer adds these up over an epoch)
        if self._fast_last(lengths, chunk < T):
            h, y_dev = self._run_last_on_device(x, training=True, state=state)
            s, _, cache = self.head.forward(h, targets, np.ones(B, bool))
            sums.update(s)
            dh = self.head.backward(cache, scale)
            k = self.stack.layers[0]._k
            dy = k.zeros(y_dev.shape, self.dtype)
            dy[y_dev.shape[0] - 1].copy_to_device(dh)
            self.stack.backward(dy, on_device=True)   # dL/dx stays on the device: nothing reads it
            return self.head.mean(sums, total)
        for t0 in range(0, T, chunk):
            t1 = min(t0 + chunk, T)
            lc = None if lengths is None else np.clip(lengths - t0, 0, t1 - t0)
            y, state, _ = self._run(np.ascontiguousarray(x[t0:t1]), state, True, lc, t0, text)
            h, valid, where = self._select(y, T, lengths, t0)
            s, _, cache = self.head.forward(h, _chunk_targets(targets, self.head, t0, t1), valid)
            for m in s:
                sums[m] += s[m]
            dh = self.head.backward(cache, scale)
            self.stack.backward(self._scatter(dh, y.shape, where))
            state = [tuple(np.array(a) for a in s_) for s_ in state]  # detached copies for the next chunk
        return self.head.mean(sums, total)

    def loss_sums(self, x, targets, lengths=None, noise_key=0, text=None):
        """Inference (training=False) on one batch -> (sums {metric: sum, 'seqs': sequences}, count). With state_noise,
        the initial states are noise drawn for ``noise_key`` (evaluate passes the batch's index, so an
        evaluation is the same every time). The stack runs in time chunks (``_infer_chunks``); a
        last-step head gets only each row's last output, a per-step head scores chunk by chunk."""
        T, B = x.shape[0], x.shape[1]
        lengths = check_lengths(lengths, T, B)
        self._text(text)
        state = self.noise_state(B, (2, int(noise_key)))
        seqs = float(B if lengths is None else np.count_nonzero(lengths > 0))
        if self._fast_last(lengths, False):
            h, _ = self._run_last_on_device(x, training=False, state=state)
            s, count, _ = self.head.forward(h, targets, np.ones(B, bool))
            return {**s, "seqs": seqs}, count
        if self.head.steps == "last":
            h = self.last_outputs(x, state, lengths, text)
            L = np.full(B, T, np.int64) if lengths is None else lengths
            s, count, _ = self.head.forward(h, targets, L > 0)
            return {**s, "seqs": seqs}, count
        if getattr(self.head, "whole_sequence", False):  # the chunks' outputs joined, scored at once
            y = np.concatenate([y for _, _, y in self._infer_chunks(x, state, lengths, text)])   # (T,B,H)
            h, valid, _ = self._select(y, T, lengths, 0)
            s, count, _ = self.head.forward(h, targets, valid)
            return {**s, "seqs": seqs}, count
        sums, count = dict.fromkeys(self.head.sum_keys, 0.0), 0
        for t0, t1, y in self._infer_chunks(x, state, lengths, text):
            h, valid, _ = self._select(y, T, lengths, t0)
            s, c, _ = self.head.forward(h, _chunk_targets(targets, self.head, t0, t1), valid)
            for m in s:
                sums[m] += s[m]
            count += c
        return {**sums, "seqs": seqs}, count

    # ---- inference in time chunks ----
    def _infer_chunks(self, x, state, lengths, text=None):
        """Inference over x (T,B,I) in time chunks of at most ``infer_chunk_steps(B)`` steps, each
        starting from the states the previous one ended in (BatchNorm reads the statistics of the
        chunk's absolute steps, t0 on): yields (t0, t1, y (t1-t0,B,out) on the host). Each chunk runs
        with keep=False (``_run``). Why chunks all the same: y, a wide input's x Wx (T,B,G), and the
        BPTT activations that the BN cells and a masked LSTM still save (several (T,B,G) arrays) are a
        chunk's size, and their memory is reused by the next. lengths (B,) checked, or None. Where a
        row has ended, later chunks run it from its final state (its outputs there are padding either way)."""
        T = x.shape[0]
        # a bidirectional stack's backward direction starts at each row's end: one chunk of all T steps
        chunk = max(T, 1) if self.reverse_columns is not None else infer_chunk_steps(x.shape[1], T)
        for t0 in range(0, max(T, 1), chunk):  # T = 0 reaches the layer, which says what is wrong
            t1 = min(t0 + chunk, T)
            lc = None if lengths is None else np.clip(lengths - t0, 0, t1 - t0)
            y, state, _ = self._run(np.ascontiguousarray(x[t0:t1]), state, False, lc, t0, text)
            yield t0, t1, y

    def last_outputs(self, x, state=None, lengths=None, text=None):
        """Inference: each sequence's stack output at its last step, (B,out) (zeros where lengths[b] = 0),
        run in time chunks (``_infer_chunks``) keeping only those rows. state: initial states or None."""
        T, B = x.shape[0], x.shape[1]
        lengths = check_lengths(lengths, T, B)
        last = (np.full(B, T, np.int64) if lengths is None else lengths) - 1   # (B,) each row's last step
        h = None
        for t0, t1, y in self._infer_chunks(x, state, lengths, text):
            if h is None:
                h = np.zeros((B, y.shape[2]), y.dtype)                         # (B,out)
            rows = np.nonzero((last >= t0) & (last < t1))[0]
            h[rows] = y[last[rows] - t0, rows]
            if self.reverse_columns is not None:  # one chunk (t0 = 0): the backward columns at step 0
                h[rows] = np.where(self.reverse_columns, y[0, rows], h[rows])
        return h

    def evaluate(self, batches):
        """{metric: mean} over an iterable of (x, targets, lengths or None[, text]) batches (inference mode):
        sums and counts add up first, so the result does not depend on how the data were batched."""
        tot, count = dict.fromkeys(self.head.sum_keys, 0.0), 0
        for i, (x, targets, lengths, *text) in enumerate(batches):
            sums, c = self.loss_sums(x, targets, lengths, noise_key=i, text=text[0] if text else None)
            for m in tot:
                tot[m] += sums[m]
            count += c
        return self.head.mean(tot, count)

    def step(self, x_t, state=None, t=0, text=None):
        """One inference step: x_t (B,I) -> the head's linear output (B,O), new states. text: as
        loss_and_grad's (a conditioned model's step also leaves phi (B,U) in ``stack.phi[0]``)."""
        y_t, state = self.stack.step(x_t, state, t=t, **self._text(text))
        return self.head.linear(y_t), state


def infer_chunk_steps(B, T):
    """Steps per chunk of an inference over a batch of B sequences of T steps (config.INFER_CHUNK_ROWS)."""
    return max(1, min(T, INFER_CHUNK_ROWS // max(B, 1)))


def batches_of(x, targets, lengths=None, batch_size=500):
    """(x, targets, lengths) of consecutive batches of x (T,N,I), targets (N,...), lengths (N,) or None."""
    for s in range(0, x.shape[1], batch_size):
        sl = slice(s, s + batch_size)
        yield np.ascontiguousarray(x[:, sl]), targets[sl], None if lengths is None else lengths[sl]


def _chunk_targets(targets, head, t0, t1):
    """Per-step targets (B,T,...) sliced to the chunk's steps; per-sequence targets (and a whole-sequence
    head's, which meets no chunk) unchanged."""
    if head.steps == "all" and not getattr(head, "whole_sequence", False):
        return np.asarray(targets)[:, t0:t1]
    return targets


# ---- building models from configs and checkpoints ----

def head_config(objective="ce", num_classes=10, per_step=False, tolerance=0.04):
    """The head config of a task's objective ('ce' classifier, 'mse' regression)."""
    if objective == "ce":
        return {"kind": "classifier", "outputs": int(num_classes), "per_step": bool(per_step)}
    if objective == "mse":
        return {"kind": "regression", "outputs": int(num_classes), "per_step": bool(per_step),
                "tolerance": float(tolerance)}
    raise ValueError(f"objective must be 'ce' or 'mse', not {objective!r}")


def upgrade_config(config):
    """A model config of any lnrnn version -> today's form (the stack's keys plus 'head').
    Version 0.1 checkpoints stored the classifier's fields (num_classes, objective, per_step,
    tolerance) beside the stack's."""
    cfg = dict(config)
    cfg.setdefault("state_noise", 0.0)
    if "head" in cfg:
        return cfg
    head = head_config(cfg.pop("objective", "ce"), cfg.pop("num_classes", 10), cfg.pop("per_step", False),
                       cfg.pop("tolerance", 0.04))
    return {**cfg, "head": head}


def build_model(config, seed=0, device="cpu", max_steps=1, recurrent_init="orthogonal", clip_gates=0.0):
    """The model a config describes (``model.config`` or an upgraded checkpoint's), freshly initialized.
    clip_gates: Graves's bound on the LSTM layers' dL/d(gate preactivations) (a training setting, not
    in the config: layers.gate_clip)."""
    from lnrnn.model.layers import RecurrentStack
    cfg = upgrade_config(config)
    unknown = set(cfg) - set(STACK_KEYS) - set(WINDOW_KEYS) - {"head", "state_noise", "skip", "bidirectional"}
    if unknown:
        raise ValueError(f"unknown model settings {sorted(unknown)}")
    if cfg.get("window") and cfg.get("bidirectional"):
        raise ValueError("the synthesis network (an attention window) writes step by step; it cannot be "
                         "bidirectional")
    if cfg.get("window"):
        from lnrnn.model.window import WindowStack
        stack = WindowStack(cfg["cell"], cfg["norm"], cfg["input_size"], cfg["hidden_size"], cfg["num_layers"],
                            alphabet_size=cfg["alphabet_size"], window=cfg["window"],
                            window_norm=cfg.get("window_norm"), dtype=np.dtype(cfg["dtype"]).type,
                            seed=seed, forget_bias=cfg["forget_bias"], max_steps=max_steps, device=device,
                            recurrent_init=recurrent_init, clip_gates=clip_gates)
        head = make_head(cfg["head"], stack.output_size, dtype=cfg["dtype"], seed=seed)
        return SequenceModel(stack, head, state_noise=cfg["state_noise"], noise_seed=seed)
    stack = RecurrentStack(cfg["cell"], cfg["norm"], cfg["input_size"], cfg["hidden_size"], cfg["num_layers"],
                           dtype=np.dtype(cfg["dtype"]).type, seed=seed, forget_bias=cfg["forget_bias"],
                           max_steps=max_steps, device=device, skip=cfg.get("skip", False),
                           recurrent_init=recurrent_init, clip_gates=clip_gates,
                           bidirectional=cfg.get("bidirectional", False))
    head = make_head(cfg["head"], stack.output_size, dtype=cfg["dtype"], seed=seed)
    return SequenceModel(stack, head, state_noise=cfg["state_noise"], noise_seed=seed)


def SequenceClassifier(cell="lstm", norm="none", input_size=1, hidden_size=64, num_layers=1, num_classes=10,
                       objective="ce", per_step=False, tolerance=0.04, dtype="float32", forget_bias=1.0, seed=0,
                       stack=None, device="cpu"):
    """A stack and a classifier ('ce') or regression ('mse') head: the model of lnrnn 0.1, by its old
    arguments. ``stack``: use this stack (anything with RecurrentStack's interface) instead."""
    if objective == "mse" and (num_classes != 1 or per_step):
        raise ValueError("the 'mse' objective has one output on the last step")
    hc = head_config(objective, num_classes, per_step, tolerance)
    if stack is None:
        return build_model(dict(cell=cell, norm=norm, input_size=input_size, hidden_size=hidden_size,
                                num_layers=num_layers, dtype=np.dtype(dtype).name, forget_bias=float(forget_bias),
                                head=hc), seed=seed, device=device)
    return SequenceModel(stack, make_head(hc, hidden_size, dtype=dtype, seed=seed))
