"""Compiled kernels: one module per op, CPU twin (``@njit``/``prange``) here, CUDA twin beside it.

What a user imports is here: the ops (layernorm, batchnorm, lstm, rnn, bn_lstm, bn_rnn, window, mdn, ctc,
optim; each ``<op>_cuda`` twin beside it) and the parts only the BN cells use (bn_cell_x, bn_parts,
bn_sync). The machinery under them lives in two folders: ``cpu/`` (the BLAS choice, rgemm, threaded GEMMs,
threads and blocks, row passes) and ``cuda/`` (device arrays and launch sizes, the tiled GEMM, block-wide
row functions, the CUDA environment). Machinery never imports an op.

Conventions (written once for the whole library)
------------------------------------------------
Shape letters
    T  time steps          B  batch            I  input features
    H  hidden units        G  gate width: 4H for the LSTM, H for the vanilla RNN
    N  rows of a 2-D LayerNorm/BatchNorm input (often N = T*B)   F  features

Layouts
    Sequences are time-major and C-contiguous: x (T,B,I), y (T,B,H).
    Weights multiply from the right so that one row-major GEMM serves all T*B rows:
        Wx (I,G), Wh (H,G), b (G,)      preactivation = x @ Wx + h @ Wh + b
    PyTorch's ``weight_ih_l0`` is ``Wx.T`` and ``weight_hh_l0`` is ``Wh.T``; its two biases sum to ``b``.

Masks (sequences of different lengths, right-padded)
    lengths (B,) int64, 0 <= lengths[b] <= T: row b is active at step t iff t < lengths[b]; None = all
    active. The BatchNorm ops take it (``lengths=None`` last in batchnorm_forward_train/backward and
    bn_<cell>_forward; the cell backwards get it back in ``saved``): BN_t's batch statistics count the
    active rows only, and a padded (row, step) is outside the backward (its dy is ignored, its input
    gradient is zero). Plain and LN cells never mix rows and take no lengths (``masks.py``).

LSTM gate order (columns of G, PyTorch's order)
    [ i | f | g | o ]  = input gate, forget gate, cell candidate (tanh), output gate, each H wide.

Equations (symbols of Ba, Kiros & Hinton 2016, supplementary eqs. 20-22, and Cooijmans et al. 2016)
    LSTM, norm='none':  a = x Wx + h Wh + b
    LSTM, norm='ln':    a = LN(h Wh; gh, bh) + LN(x Wx; gx, bx) + b      (alpha1=gh beta1=bh alpha2=gx beta2=bx)
    LSTM, norm='bn':    a = BN_t(h Wh; gh, 0) + BN_t(x Wx; gx, 0) + b    (gamma_h=gh gamma_x=gx)
        i, f, o = sigmoid(a_i, a_f, a_o);  g = tanh(a_g)
        c_t = f * c_{t-1} + i * g                      (the carried c is never normalized)
        h_t = o * tanh(c_t)                            norm='none'
        h_t = o * tanh(LN(c_t; gc, bc))                norm='ln'   (alpha3=gc beta3=bc)
        h_t = o * tanh(BN_t(c_t; gc, bc))              norm='bn'   (gamma_c=gc beta_c=bc)
    RNN, norm='none':   h_t = tanh(x Wx + h Wh + b)
    RNN, norm='ln':     h_t = tanh(LN(x Wx + h Wh; g, b))      (paper eq. 4: joint normalization, gain g, bias b)
    RNN, norm='bn':     h_t = tanh(BN_t(h Wh; gh, 0) + BN_t(x Wx; gx, 0) + b)
    LN normalizes each row over its G (or H) features; BN_t normalizes each feature over the batch,
    with separate statistics for every time step t. Both use the biased variance and eps inside
    the square root: xhat = (x - mean) / sqrt(var + eps). In the LN-LSTM the biases bh, bx and b are
    redundant (only their sum matters); all three are kept so weights port one-to-one with eqs. 20-22.

Kernel habits (llm.c / haste)
    * Forward returns the outputs together with exactly what backward needs (a tuple documented in
      each module); backward takes that tuple back.
    * Parameter gradients are returned fresh by each backward call (callers accumulate);
      activation gradients (dx, dh0, dc0) are returned as new arrays.
    * The input projection runs as one GEMM over all T*B rows before the time loop (BN cells), as one
      product per step for each block's rows (plain and LN cells: no (T,B,G) array to write and read
      back), or inside the row loop (a narrow input, I <= config.FOLD_MAX_I); weight gradients are
      GEMMs over all T*B rows, or over blocks of rows added up.
    * The time loop runs inside compiled code. Plain and LN CPU cells split the batch into its fixed
      row blocks (``nchunks`` = ``threads.batch_blocks(B)``) and give each thread whole blocks for the
      whole sequence (``threads.run_chunks``: one nogil compiled function per block, compiled once,
      where a prange body is compiled three times), calling single-threaded BLAS inside it; the GEMMs
      over all T*B rows prange over as many row chunks. BN couples the batch at every step, so BN
      cells' parts (one per thread, each owning whole blocks, ``threads.run_synced``; one thread below
      ``par_min``) also meet within every step: each writes its blocks' moments (backward: sums) and
      waits at a barrier, then all combine every block's (``bn_parts.parts_stats``, ``sum_parts``);
      the sequence-wide BN of x Wx prange over chunks of steps.
    * Reproducibility: blocks, not threads, are the units of work and of results. A block's rows, its
      partial sums and the shapes of its BLAS calls depend on B alone, and partials are added in block
      order, so every output and gradient is the same bits on 1 thread as on 16 (tests/kernels/test_reproducible.py).
    * A time loop's inputs reach it read-only (``threads.readonly``, views, no copy): Numba compiles a
      function once per combination of its arguments' read-only flags, and callers differ (the JAX
      binding's arrays are read-only, a layer's own are not), so every caller meets one compiled loop
      per dtype, and a write into an input does not compile.
    * float32 and float64 are both supported; constants are made with ``x.dtype.type(...)`` so
      float32 code stays float32 (and means are products with ``1/F`` in the row dtype: a float32
      divided by an int is a float64 in Numba, and carries the loop that uses it into float64).
"""
from lnrnn.threadscope import prepare_process  # noqa: E402

# The kernels' process settings, made when the kernels are first imported (not by ``import lnrnn``):
# Numba's threading layer started with passive OpenMP waiting, and glibc reusing large freed buffers
# (``lnrnn.threadscope.prepare_process`` says why, and how to turn the allocator setting off). A kernel
# called directly, outside ``kernel_threads``, then runs as it does under lnrnn's own layers.
prepare_process()
