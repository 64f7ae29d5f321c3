"""Planted bugs in --reproducible's data-parallel update (BN blocks included) and in the evaluation's sums over MPI ranks
(lnrnn/training/distributed.py; format: tests/mutants/mutants.py).

    python tests/mutants/run.py --only 'ranks-*'
"""

DIST = "lnrnn/training/distributed.py"
T = "tests/training/test_reproducible_ranks.py"

MUTANTS = [
    dict(name="ranks-reduce-own-blocks-first", file=DIST,
         old="    gall = group.allgather_rows(gpart, counts)   # (nb, P) in block order, the same on every rank\n"
             "    sall = group.allgather_rows(spart, counts)   # (nb, K)\n",
         new="    gall = gpart.sum(axis=0, keepdims=True)\n    group.allreduce(gall.reshape(-1))\n"
             "    sall = spart.sum(axis=0, keepdims=True)\n    group.allreduce(sall.reshape(-1))\n    nb = 1\n",
         tests=[f"{T}::test_reproducible_training_is_the_same_bits_on_any_number_of_ranks[2]"],
         why="each rank adds its own blocks and one Allreduce adds the ranks: the order follows the rank count"),
    dict(name="ranks-block-normalized-by-its-own-count", file=DIST,
         old="                        total=total, text=tx)\n",
         new="                        total=None, text=tx)\n",
         tests=[f"{T}::test_blocks_give_the_gradient_of_one_call[per-step-masked-lstm-ln]"],
         why="each block's loss is its own mean: the blocks' gradients add up to nb times a reweighted mean"),
    dict(name="ranks-eval-sums-per-rank", file=DIST,
         old="        acc[i, :-1] = [sums[k] for k in keys]\n        acc[i, -1] = c\n",
         new="        acc[0, :-1] += [sums[k] for k in keys]\n        acc[0, -1] += c\n",
         tests=[f"{T}::test_reproducible_training_is_the_same_bits_on_any_number_of_ranks[3]"],
         why="each rank adds up its own evaluation batches and the ranks' sums are reduced: validation figures "
             "then depend on the rank count"),
    dict(name="ranks-noise-drawn-per-block", file=DIST,
         old="        st = None if state is None else [tuple(np.ascontiguousarray(s[rows]) for s in layer) for layer in state]\n",
         new="        st = None if state is None else model.noise_state(hi - lo, (1, int(noise_key)))\n",
         tests=[f"{T}::test_blocks_give_the_gradient_of_one_call[last-step-lstm-ln]"],
         why="every block draws its own initial-state noise for its rows: not the rows of the batch's draw"),
    dict(name="ranks-bn-stats-added-per-rank", file=DIST,
         old="        mine = np.stack(self.slots)[:self.own]                                # (own blocks, L)\n"
             "        rows = self.group.allgather_rows(mine, self.counts)                   # (nb, L) in block order\n",
         new="        rows = np.stack(self.slots)[:self.own].sum(axis=0, keepdims=True)\n"
             "        self.group.allreduce(rows.reshape(-1))\n",
         tests=[f"{T}::test_reproducible_training_is_the_same_bits_on_any_number_of_ranks[2]"],
         why="each rank adds its own blocks' BN sums and an Allreduce adds the ranks: the statistics' order "
             "follows the rank count"),
    dict(name="ranks-bn-running-stats-left-behind", file=DIST,
         old="        model.stack.load_buffers({name: v.copy() for name, v in runners[0].stack.buffers.items()})\n",
         new="        pass\n",
         tests=[f"{T}::test_blocks_give_the_gradient_of_one_call[last-step-lstm-bn]"],
         why="the blocks' models update the running statistics and the trained model never gets them"),
    dict(name="ranks-bn-block-models-stale-params", file=DIST,
         old="            m.flat[0].data[...] = model.flat[0].data\n",
         new="            pass\n",
         tests=[f"{T}::test_blocks_give_the_gradient_of_one_call[per-step-masked-rnn-bn]"],
         why="the blocks' models keep the parameters they were built with: the gradient is another model's"),
]
