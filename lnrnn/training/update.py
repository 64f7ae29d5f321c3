"""One training update, on the host or on the device: the loop's one call.

    update = make_update(trainer)      # DeviceUpdate when the run's setup says ``on_device``, else HostUpdate
    update(x, y, lengths, text)        # forward, backward, clip, optimizer step on one batch
    update.sync_host()                 # the host parameters up to date before anything reads them

Both leave the batch's metric sums in ``model.last_sums`` / ``model.last_count`` for the loop, and make the
same checks: a NaN or infinite loss or gradient norm is a diverged run, a loss above the blow-up level counts
towards a blow-up (``lnrnn.training.stopping``), a NaN in the batch itself is the data's fault (DataError).
A run that goes wrong stops without saving, so an update already made is dropped with it.

x: (T, B, I) the batch; y: its labels or targets; lengths: (B,) valid steps per row or None; text: a
conditioned (synthesis) batch's characters.
"""
import math

import numpy as np

from lnrnn.errors import DataError
from lnrnn.training import distributed, prewarm
from lnrnn.training.optim import clip_grad_norm


def make_update(trainer):
    """The update of a trainer's run: on the device (--device cuda, where the model allows it) or the host."""
    return DeviceUpdate(trainer) if trainer.setup.on_device else HostUpdate(trainer)


def nonfinite(trainer, e, x=None):
    """A layer's ValueError for a NaN or infinite array (on either path): the data's fault when the batch ``x``
    itself holds one (a DataError), else a diverged run in that update, or without a batch (x None) in the
    evaluation after the last one; any other ValueError goes on."""
    if "NaN or infinite" not in str(e):
        raise e
    if x is None:
        trainer._diverged("recurrent activations of the validation", "NaN or infinite", evaluated=True)
    if not np.all(np.isfinite(x)):
        raise DataError(f"the training data of {trainer.cfg.task} hold NaN or infinite values (batch "
                        f"{trainer.batch_in_epoch + 1} of epoch {trainer.epoch + 1}); fix the data.") from None
    trainer._diverged("gradient from the head" if str(e).startswith("dy") else "recurrent activations",
                      "NaN or infinite")


class HostUpdate:
    """The update with parameters, gradients and optimizer state in host memory (the model's flat arrays);
    an MPI group's ranks or --reproducible's blocks combine their gradients (``lnrnn.training.distributed``)."""

    def __init__(self, trainer):
        self.trainer = trainer

    def __call__(self, x, y, lengths, text=None):
        t = self.trainer
        means = self.loss_and_grad(x, y, lengths, text)
        loss = means["loss"]
        if not math.isfinite(loss):
            t._diverged("training loss", loss)
        params, grads = t.model.flat[0].data, t.model.flat[1].data
        norm = clip_grad_norm(grads, t.cfg.clip)
        if not math.isfinite(norm):
            t._diverged("gradient norm", norm)
        t._blown_up(loss)
        t.opt.step(params, grads)

    def loss_and_grad(self, x, y, lengths, text=None):
        """The model's forward and backward on one batch -> the head's means; a NaN or infinite activation or
        gradient inside the stack (which the layers refuse with a ValueError) is a diverged run."""
        t = self.trainer
        c, first = t.cfg, t.first_update_s is None
        try:
            if t.group.size > 1 or c.reproducible:
                # this rank's shard (or, --reproducible, its blocks); gradients, sums and stop votes combined
                t.stopping.cast_votes()
                run = distributed.loss_and_grad_blocks if c.reproducible else distributed.loss_and_grad
                with prewarm.armed(first and t.group.size == 1):
                    return run(t.group, t.model, x, y, lengths, c.tbptt, t.step, t.votes, text)
            # the first update of a process on a cold cache compiles the backward loops in a second
            # process meanwhile (lnrnn.training.prewarm; layers on other devices start none)
            with prewarm.armed(first):
                return t.model.loss_and_grad(x, y, lengths, tbptt=c.tbptt, noise_key=t.step, text=text)
        except ValueError as e:
            nonfinite(t, e, x)

    def sync_host(self):
        """Nothing to bring back: the host holds the parameters."""


class DeviceUpdate:
    """The update with the parameters, gradients and optimizer state on the device (--device cuda): the stack,
    the head and its loss (``SequenceModel.loss_and_grad_on_device``: every batch kind, ragged, in truncated-BPTT
    chunks, with a text), the clipping and the optimizer run there, and one copy comes back: the metrics (the
    head's two sums, the gradient norm). The checks are the host path's, made once the metrics are here."""

    def __init__(self, trainer):
        self.trainer = trainer
        self.host_stale = False  # the host parameters are behind the device's
        self.metrics = None      # (3,) float64 on the device: the head's 2 sums, the gradient norm

    def __call__(self, x, y, lengths, text=None):
        from lnrnn.kernels import optim_cuda
        from lnrnn.kernels.cuda import arrays_cuda
        t = self.trainer
        model, cfg = t.model, t.cfg
        p, g = model.device_buffers()
        if self.metrics is None:
            self.metrics = arrays_cuda.zeros((3,), np.float64)
        metrics = self.metrics
        try:
            model.loss_and_grad_on_device(x, y, metrics[:2], noise_key=t.step, lengths=lengths, tbptt=cfg.tbptt,
                                          text=text)
        except ValueError as e:
            nonfinite(t, e, x)
        optim_cuda.clip_grad_norm(g.data, cfg.clip, metrics[2:])
        t.opt.step(p.data, g.data)
        self.host_stale = True
        first, second, norm = metrics.copy_to_host()                     # the update's one copy to the host
        # the head's two metrics' sums (loss, acc; the mixture density's loss, nats_seq), sequences with a step
        seqs = x.shape[1] if lengths is None else np.count_nonzero(np.asarray(lengths) > 0)
        sums = {**dict(zip(model.head.metrics, (float(first), float(second)))), "seqs": float(seqs)}
        model.last_sums = {**sums, **{k: v for k, v in model.last_host_sums.items() if k not in sums}}
        loss = model.head.mean(model.last_sums, model.last_count)["loss"]
        if not math.isfinite(loss):
            t._diverged("training loss", loss)
        if not math.isfinite(norm):
            t._diverged("gradient norm", norm)
        t._blown_up(loss)

    def sync_host(self):
        """Bring the host parameters up to date with the device ones before anything reads them: evaluation,
        checkpoints, a hook, the caller of ``train``."""
        if self.host_stale:
            self.trainer.model.pull_params()
            self.host_stale = False
