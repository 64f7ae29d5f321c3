"""Planted bugs in rgemm_fetch's row tiles (lnrnn/kernels/cpu/rgemm.py: row_tiles and the tile loop; format:
tests/mutants/mutants.py): rows left untiled, a tile of 4 placed at a tile of MR's stride, the edge rows not
copied from the scratch tile, a column edge of an MR tile computed by a tile of 4. Caught by
tests/kernels/test_row_tiles.py (the tiling against its definition, the product at every b against float64
with a guard row), on AVX2 (MR 6) and AVX-512 (MR 8) hosts alike; the old rgemm tests beside it.

    python tests/mutants/run.py --only 'row-tiles-*'
"""
F = "lnrnn/kernels/cpu/rgemm.py"
T = "tests/kernels/test_row_tiles.py::"
OLD = ["tests/kernels/test_rgemm.py", "tests/kernels/test_values197_rgemm.py"]

MUTANTS = [
    dict(name="row-tiles-leftover-rows-dropped", file=F,
         old="    return n, r // 4, r % 4",
         new="    return n, r // 4, 0",
         tests=[T + "test_every_row_in_one_tile_and_at_most_three_clamped",
                T + "test_product_at_every_b_equals_float64_and_each_row_alone"] + OLD,
         why="the 1-3 rows past the last tile of 4 are never computed (b = 13: its last row is left as it was)"),
    dict(name="row-tiles-edge-tile-not-run", file=F,
         old="        for t in range(n + m + (e > 0)):",
         new="        for t in range(n + m):",
         tests=[T + "test_product_at_every_b_equals_float64_and_each_row_alone"] + OLD,
         why="row_tiles counts the clamped tile of the rows left, but the loop never runs it"),
    dict(name="row-tiles-fours-at-mr-stride", file=F,
         old="            i0 = t * MR if t < n else n * MR + (t - n) * 4",
         new="            i0 = t * MR if t < n else n * MR + (t - n) * MR",
         tests=[T + "test_product_at_every_b_equals_float64_and_each_row_alone"] + OLD,
         why="the second tile of 4 starts MR rows after the first: rows skipped and rows past b read"),
    dict(name="row-tiles-fours-take-mr-rows", file=F,
         old="            mr = min(MR if t < n else 4, b - i0)",
         new="            mr = min(MR, b - i0)",
         tests=[T + "test_product_at_every_b_equals_float64_and_each_row_alone"] + OLD,
         why="a tile of 4 is taken as MR rows: it goes through the scratch tile and copies rows it never computed"),
    dict(name="row-tiles-clamped-rows-not-copied", file=F,
         old="            if nc < NR or mr < 4:",
         new="            if nc < NR:",
         tests=[T + "test_product_at_every_b_equals_float64_and_each_row_alone"] + OLD,
         why="the clamped tile's rows stay in the scratch tile: C's last 1-3 rows are never written"),
    dict(name="row-tiles-column-edge-on-four-rows", file=F,
         old="                _tile_fetch(A, i0, Wp, p, edge, 0, 0, st, 0, 0, 0)",
         new="                _tile_4(A, i0, Wp, p, edge, 0, 0, st)",
         tests=[T + "test_product_at_every_b_equals_float64_and_each_row_alone"] + OLD,
         why="the column edge of a tile of MR rows computes only 4 of them: rows 5-MR of the last panel are stale"),
    dict(name="row-tiles-two-left-taken-early", file=F,
         old="    if MR == 6 and r == 2 and n > 0:",
         new="    if MR == 6 and r == 2:",
         tests=[T + "test_every_row_in_one_tile_and_at_most_three_clamped",
                T + "test_product_at_every_b_equals_float64_and_each_row_alone"] + OLD,
         why="b = 2 (no tile of 6 to give back) gets -1 tiles of 6 and 2 of 4 (on AVX-512 hosts, MR 8, the line "
             "never runs: equivalent there)"),
]
