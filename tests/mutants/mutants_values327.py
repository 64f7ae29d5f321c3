"""Planted bugs, round 327 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the per-step product (lnrnn/kernels/cpu/rgemm.py) and the BLAS wrappers (lnrnn/kernels/cpu/blas.py):
the tile reading panel p at p*H*L instead of p*H*NR elements; pack's default width for float32 taken as
float64's; the packed columns past G repeating the last column instead of zero; rgemm_add adding nothing at
K = 1; rgemm_add's edge tiles dropping their last column; fetch_schedule giving every tile of a region the
region's first address; a region of whole lines never left (off > bytes); rgemm_fetch taking its first tile of 4
rows for a tile of MR rows and leaving it unwritten; rgemm_rowstats adding its edge tiles into C instead of
overwriting; gemm's MKL path zeroing out at K = 1; gemm transposing A by add instead of trans_a; blas_mul sending
strided rows to the packed product; rgemm_mul passing K for the column count; the rows products chosen on
REC == "blas".

14 mutants. Against the old targeted files alone: not measured yet. (tests/kernels/test_rgemm.py,
test_values197_rgemm.py, test_values106_rgemm.py, test_values197_blas.py, test_values_blas.py). The new value
tests catch every mutant on their own (checked with the old files taken off the lists):
test_values327_products (rgemm_mul and rgemm_mul_fetch at rows 1, 3, 4, 5, 7, 13, 16, 33, K 1 and 17, columns
13 and 2 NR + 3, W packed once, into NaN outputs, against float64 NumPy; pack's panels element by element;
rgemm_rowstats' C and row moments against NumPy over outputs that held 7; rgemm_add and grad_t_add accumulating
into random outputs, A also through transposed strides; fetch_schedule's tiles walked out by hand; gemm and
gemm_add with and without trans_a; blas_mul on strided rows with a packed buffer; the REC table of products by
name). Left out as equivalent: _aligned rounding data + ALIGN instead of data + ALIGN - 1 (pack and compute
align the same buffer the same way, and n + ALIGN bytes leave room); fetch_schedule's first share taken with
floor instead of ceil (the while loop still climbs to the smallest share with room); the row clamp compared
with <= (the clamped rows land in the scratch tile's rows that are never copied); packed's src slice to
j0 + nr (only its first nc entries are read); the prefetch codegen (a hint: no result depends on it).
Left out as memory corruption rather than a value: rgemm_rowstats summing st over MR rows, rgemm_fetch's
tile of 4 taken for fewer rows (writes past C or s1).

    python tests/mutants/run.py --only 'v327-*'
"""
RG = "lnrnn/kernels/cpu/rgemm.py"
BL = "lnrnn/kernels/cpu/blas.py"

T = "tests/kernels/test_values327_products.py::"
OLD = ["tests/kernels/test_rgemm.py", "tests/kernels/test_values197_rgemm.py", "tests/kernels/test_values106_rgemm.py",
       "tests/kernels/test_values197_blas.py", "tests/kernels/test_values_blas.py"]

MUTANTS = [
    # ---- the per-step product: lnrnn/kernels/cpu/rgemm.py ----
    dict(name="v327-rgemm-panel-stride-one-vector", file=RG,
         old="            si, sk, sp = H, one, builder.mul(H, ir.Constant(intp, nr))",
         new="            si, sk, sp = H, one, builder.mul(H, ir.Constant(intp, L))",
         tests=[T + "test_rgemm_mul_packed_once_at_awkward_sizes", T + "test_rowstats_overwrites_c_and_sums_rows"]
         + OLD,
         why="the contiguous tiles find panel p at p*H*L elements, half a panel on: every column past the first "
             "NR comes from the wrong weights"),
    dict(name="v327-rgemm-pack-width-of-float64", file=RG,
         old="    return packed(Wh, nr_of(Wh.dtype) if nr is None else int(nr))",
         new="    return packed(Wh, nr_of(np.float64) if nr is None else int(nr))",
         tests=[T + "test_pack_panels_by_definition", T + "test_rowstats_overwrites_c_and_sums_rows"] + OLD,
         why="pack of a float32 Wh makes panels of float64's width, which rgemm refuses"),
    dict(name="v327-rgemm-pack-pads-with-last-column", file=RG,
         old="                dst[jj] = 0\n",
         new="                dst[jj] = src[nc - 1]\n",
         tests=[T + "test_pack_panels_by_definition", T + "test_rowstats_overwrites_c_and_sums_rows"] + OLD,
         why="the panel columns past G repeat the last column: rgemm_rowstats' sums take in columns that do not "
             "exist"),
    dict(name="v327-rgemm-add-nothing-at-k-one", file=RG,
         old="    if b == 0 or K == 0:\n        return\n    edge",
         new="    if b == 0 or K <= 1:\n        return\n    edge",
         tests=[T + "test_rgemm_add_accumulates_into_c", T + "test_grad_t_add_adds_d_transposed_times_a"] + OLD,
         why="rgemm_add returns without adding when K = 1 (a block of one gathered row in grad_t_add)"),
    dict(name="v327-rgemm-add-edge-drops-last-column", file=RG,
         old="                    for j in range(nc):\n                        C[i0 + i, j0 + j] += edge[i, j]",
         new="                    for j in range(nc - 1):\n                        C[i0 + i, j0 + j] += edge[i, j]",
         tests=[T + "test_rgemm_add_accumulates_into_c", T + "test_grad_t_add_adds_d_transposed_times_a"] + OLD,
         why="rgemm_add's edge tiles add all but their last column: that column of C keeps its old value"),
    dict(name="v327-rgemm-fetch-address-without-offset", file=RG,
         old="        pa[f] = plan[r, 0] + off\n",
         new="        pa[f] = plan[r, 0]\n",
         tests=[T + "test_fetch_schedule_walked_by_hand"] + OLD,
         why="every tile of a region asks for the region's first lines: the rest are never fetched"),
    dict(name="v327-rgemm-fetch-region-left-one-late", file=RG,
         old="        if off >= plan[r, 1]:\n",
         new="        if off > plan[r, 1]:\n",
         tests=[T + "test_fetch_schedule_walked_by_hand"] + OLD,
         why="a region of whole cache lines is never left: the tiles after it ask for 0 lines past its end"),
    dict(name="v327-rgemm-fetch-first-tile-of-four-as-mr", file=RG,
         old="            elif t < n:  # a column edge",
         new="            elif t <= n:  # a column edge",
         tests=[T + "test_rgemm_mul_packed_once_at_awkward_sizes"] + OLD,
         why="the first tile of 4 rows goes to the scratch tile and is not copied: rows past the tiles of MR "
             "keep what C held (b = 4, 16)"),
    dict(name="v327-rgemm-rowstats-edge-added-into-c", file=RG,
         old="                        C[i0 + i, j0 + j] = edge[i, j]\n            for i in range(mr):  # the zero",
         new="                        C[i0 + i, j0 + j] += edge[i, j]\n            for i in range(mr):  # the zero",
         tests=[T + "test_rowstats_overwrites_c_and_sums_rows"] + OLD,
         why="rgemm_rowstats adds its edge tiles to what C held instead of overwriting them"),
    # ---- the BLAS wrappers: lnrnn/kernels/cpu/blas.py ----
    dict(name="v327-blas-gemm-zero-at-k-one", file=BL,
         old="    if K == 0:\n        if not add:",
         new="    if K == 1:\n        if not add:",
         tests=[T + "test_gemm_overwrites_and_gemm_add_accumulates"] + OLD,
         why="MKL's gemm of one inner column (an outer product) writes zeros, gemm_add adds nothing"),
    dict(name="v327-blas-gemm-transpose-by-add", file=BL,
         old="    ta = TRANS if trans_a else NO_TRANS",
         new="    ta = TRANS if add else NO_TRANS",
         tests=[T + "test_gemm_overwrites_and_gemm_add_accumulates"] + OLD,
         why="gemm reads A transposed when it accumulates, not when trans_a asks"),
    dict(name="v327-blas-mul-strided-rows-to-packed", file=BL,
         old="    elif P.size == 0 or not _contiguous(A, W, out):",
         new="    elif P.size == 0 and not _contiguous(A, W, out):",
         tests=[T + "test_blas_mul_packed_once_and_strided_rows"] + OLD,
         why="blas_mul sends strided rows to MKL's packed product, which reads them as contiguous"),
    dict(name="v327-blas-rgemm-mul-columns-from-k", file=BL,
         old="            rg.rgemm_fetch(A, P, out, W.shape[1], np.empty((0, 2), np.int64))  # rgemm, one",
         new="            rg.rgemm_fetch(A, P, out, W.shape[0], np.empty((0, 2), np.int64))  # rgemm, one",
         tests=[T + "test_rgemm_mul_packed_once_at_awkward_sizes"] + OLD,
         why="rgemm_mul passes W's rows (K) for the column count: refused wherever K != N"),
    dict(name="v327-blas-rows-products-on-blas-name", file=BL,
         old='rows_pack, rows_mul = (rgemm_rows_pack, rgemm_mul) if REC == "rgemm" else (gemm_pack, gemm_mul)',
         new='rows_pack, rows_mul = (rgemm_rows_pack, rgemm_mul) if REC == "blas" else (gemm_pack, gemm_mul)',
         tests=[T + "test_products_chosen_by_rec_are_the_documented_ones"] + OLD,
         why="the rows products take the other side of REC: gemm where the per-step products run on rgemm"),
]
