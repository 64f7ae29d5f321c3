"""Planted bugs in the CUDA twins of the RNN and the BN cells (lnrnn/kernels/rnn_cuda.py, bn_lstm_cuda.py,
bn_rnn_cuda.py), each caught by the twin-equality tests under Numba's simulator (format:
tests/mutants/mutants.py). Not planted: a padded step's own derivatives in the BN twins' step kernels
(the column backward and the x side mask padded rows again, so no output shows them: an equivalent bug).

    python tests/mutants/run.py --only 'cuda-twin-*'
"""

CUDA = "tests/kernels/test_cuda_kernels.py"
RNN = "lnrnn/kernels/rnn_cuda.py"
BNL = "lnrnn/kernels/bn_lstm_cuda.py"
BNR = "lnrnn/kernels/bn_rnn_cuda.py"

MUTANTS = [
    dict(name="cuda-twin-rnn-ln-forgets-rstd", file=RNN,
         old="                    ah = (av[u] - m) * r\n",
         new="                    ah = av[u] - m\n",
         tests=[CUDA + "::test_rnn_matches_cpu"],
         why="the LN-RNN's normalized preactivation is only centered, not scaled to unit variance"),
    dict(name="cuda-twin-rnn-ln-backward-drops-the-variance-term", file=RNN,
         old="                    s2 += d * gk * ak\n",
         new="                    s2 += d * gk\n",
         tests=[CUDA + "::test_rnn_matches_cpu"],
         why="LayerNorm's backward projects out the mean twice instead of the mean and the normalized row"),
    dict(name="cuda-twin-rnn-sequence-backward-skips-step-0", file=RNN,
         old="        for t in range(T - 1, -1, -1):\n            bwd_row(",
         new="        for t in range(T - 1, 0, -1):\n            bwd_row(",
         tests=[CUDA + "::test_rnn_matches_cpu"],
         why="the sequence kernel's BPTT stops before the first step: dx_0, dh0 and the weight sums miss it"),
    dict(name="cuda-twin-rnn-dg-from-the-wrong-derivative", file=RNN,
         old="colsum_prod(dZ, ahat) if ln else zeros(H, dt)",
         new="colsum_prod(dA, ahat) if ln else zeros(H, dt)",
         tests=[CUDA + "::test_rnn_matches_cpu"],
         why="the LN gain's gradient sums dL/d(preactivation) x ahat instead of dL/d(tanh argument) x ahat"),
    dict(name="cuda-twin-bn-lstm-forget-gate-reads-c-t", file=BNL,
         old="                df = dc * c_prev[b, j] * f * (one - f)\n",
         new="                df = dc * c_t[b, j] * f * (one - f)\n",
         tests=[CUDA + "::test_bn_cells_match_cpu"],
         why="the forget gate's derivative multiplies by c_t instead of c_{t-1}"),
    dict(name="cuda-twin-bn-lstm-carry-skips-the-forget-gate", file=BNL,
         old="                dcarry[b, j] = dc * f\n",
         new="                dcarry[b, j] = dc\n",
         tests=[CUDA + "::test_bn_cells_match_cpu"],
         why="dL/dc_{t-1} is passed back without the forget gate's factor"),
    dict(name="cuda-twin-bn-lstm-cell-drops-the-input-gate", file=BNL,
         old="                    c = f * c_prev[b, j] + i * g\n",
         new="                    c = f * c_prev[b, j] + g\n",
         tests=[CUDA + "::test_bn_cells_match_cpu"],
         why="the cell adds its candidate without the input gate"),
    dict(name="cuda-twin-bn-lstm-cell-gain-and-bias-swapped", file=BNL,
         old="                pbc_t[j] = s1\n                pgc_t[j] = s2\n",
         new="                pbc_t[j] = s2\n                pgc_t[j] = s1\n",
         tests=[CUDA + "::test_bn_cells_match_cpu"],
         why="the cell norm's gain and bias gradients trade places"),
    dict(name="cuda-twin-bn-rnn-backward-skips-step-0", file=BNR,
         old="        self.replay = capture_loop(prov, step, range(S - 1, -1, -1), before, after)",
         new="        self.replay = capture_loop(prov, step, range(S - 1, 0, -1), before, after)",
         tests=[CUDA + "::test_bn_cells_match_cpu"],
         why="BPTT stops before the first step: dh0, dx_0 and every sum miss it"),
    dict(name="cuda-twin-bn-rnn-dgh-takes-the-bias-sum", file=BNR,
         old="            if lane == 0:\n                pgh_t[j] = s2\n",
         new="            if lane == 0:\n                pgh_t[j] = s1\n",
         tests=[CUDA + "::test_bn_cells_match_cpu"],
         why="the h side's gain gradient is the column sum of dL/d(BN output), not of it times xhat"),
    dict(name="cuda-twin-bn-rnn-first-step-reads-y0", file=BNR,
         old="            gemm(vh0 if s == 0 else vy[s - 1], vWh, vhw[s])\n            r = min(s, Tsh - 1)\n",
         new="            gemm(vh0 if s == 0 else vy[s], vWh, vhw[s])\n            r = min(s, Tsh - 1)\n",
         tests=[CUDA + "::test_bn_cells_match_cpu"],
         why="each step's recurrent product reads this step's (unwritten) output instead of the last one's"),
]
