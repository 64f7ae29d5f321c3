"""Planted bugs in the training update on the device: the optimizers' and clipping's CUDA twin
(lnrnn/kernels/optim_cuda.py), the optimizers' device slots (lnrnn/training/optim.py), the last-step
heads' objectives (lnrnn/kernels/losses_cuda.py, lnrnn/model/heads.py), the model's device buffers
(lnrnn/model/models.py) and the trainer's device update (lnrnn/training/train.py) (format:
tests/mutants/mutants.py).

    python tests/mutants/run.py --only 'dev-update-*'
"""

KC = "lnrnn/kernels/optim_cuda.py"
OPT = "lnrnn/training/optim.py"
T = "tests/test_device_update.py"
UPDATES = f"{T}::test_three_updates_equal_the_cpu_optimizer"
LOSSES = f"{T}::test_head_objective_kernels_equal_the_host_heads"
MODEL = f"{T}::test_model_update_on_device_equals_the_host_head"
CLI = f"{T}::test_cli_train_on_device_equals_cpu"

MUTANTS = [
    dict(name="dev-update-adam-bias-correction-off-by-one", file=KC,
         old="step, eps_hat = adam_step_size(lr, beta1, beta2, eps, k)",
         new="step, eps_hat = adam_step_size(lr, beta1, beta2, eps, k + 1)",
         tests=[f"{UPDATES}[adam-strided]"],
         why="the device's Adam corrects its moments for one update more than were made"),
    dict(name="dev-update-clip-scale-not-applied", file=KC,
         old="    scale_kernel[blocks, tpb](g, scale)\n",
         new="",
         tests=[f"{UPDATES}[sgd-strided]"],
         why="the device computes the clipping factor and the norm but never scales the gradient"),
    dict(name="dev-update-last-partial-norm-dropped", file=KC,
         old="for j in range(tid, part.shape[0], tpb):",
         new="for j in range(tid, part.shape[0] - 1, tpb):",
         tests=[f"{T}::test_clipping_of_a_gradient_that_is_not_finite_leaves_it[strided]"],
         why="the last block's partial sum of squares (the block that runs past P) is left out of the norm"),
    dict(name="dev-update-odd-block-sum", file=KC,
         old="        half = (n + 1) // 2\n",
         new="        half = n // 2\n",
         tests=[f"{UPDATES}[rmsprop-strided]"],
         why="the in-block sum halves an odd count downwards: one thread's squares are lost (6 threads: 3, then 1)"),
    dict(name="dev-update-graves-not-centred", file=KC,
         old="    centred = avg is not None\n",
         new="    centred = False\n",
         tests=[f"{UPDATES}[rmsprop-graves-strided]"],
         why="the device's Graves RMSProp forgets to subtract the running mean's square"),
    dict(name="dev-update-sgd-momentum-not-stored", file=KC,
         old="                v[i] = vi\n                gi = vi\n",
         new="                gi = vi\n",
         tests=[f"{UPDATES}[sgd-strided]"],
         why="the device's SGD uses the new momentum but keeps the old one: the velocity never accumulates"),
    dict(name="dev-update-loaded-slot-not-kept-on-device", file=OPT,
         old="            buf = self.slots[slot][name] = arrays_cuda.to_device(buf)\n",
         new="            buf = arrays_cuda.to_device(buf)\n",
         tests=[f"{T}::test_resumed_device_optimizer_continues_as_the_cpu_one"],
         why="a resumed device optimizer uploads its loaded slots afresh every update, losing each update's moments"),
    dict(name="dev-update-softmax-max-shift-missing", file="lnrnn/kernels/losses_cuda.py",
         old="                s += math.exp((hw[r, c] + b[c]) - zmax)\n",
         new="                s += math.exp(hw[r, c] + b[c])\n                zmax = zero\n",
         tests=[f"{LOSSES}[classifier-900.0]"],
         why="the log-softmax without its max shift: exp overflows on large logits (loss and gradient NaN)"),
    dict(name="dev-update-regression-mask-ignored", file="lnrnn/kernels/losses_cuda.py",
         old="err = ((hw[r, o] + b[o]) - target[r, o]) * m",
         new="err = (hw[r, o] + b[o]) - target[r, o]",
         tests=[f"{LOSSES}[regression-1.0]"],
         why="the device's squared error scores rows that are not valid"),
    dict(name="dev-update-head-bias-gradient-dropped", file="lnrnn/model/heads.py",
         old="        arrays_cuda.add_into(g[\"b\"], gemm_cuda.colsum(d))                           # db += sum of d's rows\n",
         new="",
         tests=[f"{MODEL}[classifier]"],
         why="the head's bias gets no gradient on the device"),
    dict(name="dev-update-device-gradients-not-zeroed", file="lnrnn/model/models.py",
         old="        arrays_cuda.fill(g.data, 0)\n",
         new="",
         tests=[f"{CLI}[classifier-adam-False]"],
         why="the device gradients keep the last update's: the second update steps on their sum"),
    dict(name="dev-update-checkpoint-of-stale-host-parameters", file="lnrnn/training/train.py",
         old="        self.sync_host()\n        with (self.flag.saving() if self.flag is not None else contextlib.nullcontext()):\n            if self.update_log",
         new="        with (self.flag.saving() if self.flag is not None else contextlib.nullcontext()):\n            if self.update_log",
         tests=[f"{T}::test_an_update_on_the_device_copies_only_its_metrics_to_the_host"],
         why="a checkpoint saves the host parameters without fetching the device's: the updates are lost"),
    dict(name="dev-update-ragged-gradients-not-sent-up", file="lnrnn/training/train.py",
         old="            g.data.copy_to_device(model.flat[1].data)\n",
         new="",
         tests=[f"{CLI}[regression-rmsprop-graves-True]"],
         why="a ragged batch's host gradients never reach the device optimizer (it steps on zeros or stale ones)"),
    dict(name="dev-update-mdn-nats-seq-not-summed", file="lnrnn/kernels/losses_cuda.py",
         old="            rows[r, 0] = v\n            rows[r, 1] = v\n",
         new="            rows[r, 0] = v\n            rows[r, 1] = 0.0\n",
         tests=[f"{MODEL}[mdn]"],
         why="the mixture density head's nats per sequence stay 0 on the device"),
    dict(name="dev-update-normalized-by-the-batch", file="lnrnn/model/models.py",
         old="1.0 / max(self.last_count, 1), views, sums)",
         new="1.0 / B, views, sums)",
         tests=[f"{MODEL}[classifier-per-step]"],
         why="the device loss is divided by the batch's rows, not by its scored steps (per-step heads, -1 labels)"),
    dict(name="dev-update-bn-statistics-written-back", file="lnrnn/model/layers.py",
         old="            bufs = self.device_views[2]  # BN statistics kept on the device (grown to T): updated in place there\n",
         new="            pass\n",
         tests=[f"{T}::test_batchnorm_statistics_stay_on_the_device"],
         why="a device update's BN forward updates the host statistics (a copy back per layer and step) and the "
             "device copies, fetched later, never move"),
]
