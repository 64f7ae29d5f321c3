"""Planted bugs, round 325 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in the per-step product's choice (lnrnn/kernels/cpu/rec_choice.py), the compiled-kernel cache (lnrnn/compiling.py)
and lnrnn info (lnrnn/commands/info.py), seventeenth pass: rgemm chosen under 0.95 of the BLAS's time instead of
0.9; the BLAS chosen over 1.05 instead of 1.1; the products per round rounded instead of cut to whole ones; the row
shapes timed against rec_mul's BLAS product instead of the GEMM that runs them; the BLAS's dWh blocks cut to
rgemm's rows; measure_dwh's rows giving R before m; the dWh reason's ratio to one place; the record's lock file
made beside its folder; a record folder that cannot be made, or cannot be written, ending the search instead of
passing to the next; _file_base naming Python's micro version; exclusive yielding False while it holds its lock;
an absent cache index reported deleted; lnrnn info giving the per-step product's reason for the BLAS's.

14 mutants. Against the old targeted files alone: not measured yet. (test_values284_rec_choice,
test_values178_rec_choice, test_values71_rec_choice and test_values284_compiling under tests/kernels;
test_values254_compiling under tests/; test_values322_info_options and test_values_info under tests/commands.)
The new value tests catch every mutant on their own (checked with the old files taken off the lists):
test_values325_rec_choice (decide at 0.8999, 0.9, 0.92, 0.94, 1.06, 1.08, 1.1 and 1.1001 and decide_dwh at 0.874,
0.8999, 0.92, 1.456 with their reasons written out by hand; measure and measure_dwh on stand-in products that only
advance a stand-in clock by powers of two: the products per round max(3, int(2e7 / (m K N))) worked out per shape,
which product each shape is timed against, each shape's seconds, the geometric means 2 ** 0.6 and sqrt(1.1)
worked out by hand, the blocks of 7, 11, 9 and 25 steps cut into 112, 176, 36 and 100 rows with the rest; the
record's lock file and wait (300 s and a minute) by a recording stand-in around the real lock, the folder listed;
a first record folder under a plain file and one that os.access calls unwritable passed over for the next, with
test_values284's counting stand-in for the child), test_values325_compiling (_file_base against Numba's own
get_filename_base and the name written out; kernel_sources of a tree whose three kernel folders hold different
files; an absent, another Numba version's and a garbled index; exclusive held, waited out by a second
open of the same file, and held again after), test_values325_info (lnrnn info through click's
CliRunner with blas.py's choices stood in by distinct strings: the kernels' line and the dWh line word for word
for rgemm and for the BLAS). Left out as equivalent: choose's `if rec is None` made `if not rec` (a record is a
non-empty dict); the second read under the lock dropped (mutated before, and only a second child would run);
the temporary file's name with another suffix (os.replace leaves only the record). Left out as not cheaply
observable: CHILD_TIMEOUT_S itself (only a child that hangs for minutes shows it); read_record's OSError case
(every caller's next step is the same as for a missing record). Left out as a crash rather than a
value: kernel_sources listing kernels/ itself for cpu/ and cuda/ (the stamp's os.stat fails on import).

    python tests/mutants/run.py --only 'v325-*'
"""
REC = "lnrnn/kernels/cpu/rec_choice.py"
COMP = "lnrnn/compiling.py"
INFO = "lnrnn/commands/info.py"

T_REC = "tests/kernels/test_values325_rec_choice.py::"
T_COMP = "tests/kernels/test_values325_compiling.py::"
T_INFO = "tests/commands/test_values325_info.py::"
OLD_REC = ["tests/kernels/test_values284_rec_choice.py", "tests/kernels/test_values178_rec_choice.py",
           "tests/kernels/test_values71_rec_choice.py"]
OLD_COMP = ["tests/test_values254_compiling.py", "tests/kernels/test_values284_compiling.py"]
OLD_INFO = ["tests/commands/test_values322_info_options.py", "tests/commands/test_values_info.py"]

MUTANTS = [
    # ---- the measured choice and its record: lnrnn/kernels/cpu/rec_choice.py ----
    dict(name="v325-rec-rgemm-below-raised", file=REC,
         old="RGEMM_BELOW = 0.9      # rgemm where",
         new="RGEMM_BELOW = 0.95     # rgemm where",
         tests=[T_REC + "test_decide_at_and_around_its_bounds",
                T_REC + "test_decide_dwh_reasons_to_two_places_and_its_bound"] + OLD_REC,
         why="rgemm is chosen at 0.92x the BLAS's time, inside the band where the rule by CPU kind decides"),
    dict(name="v325-rec-blas-above-lowered", file=REC,
         old="BLAS_ABOVE = 1.1       # ...the BLAS",
         new="BLAS_ABOVE = 1.05      # ...the BLAS",
         tests=[T_REC + "test_decide_at_and_around_its_bounds"] + OLD_REC,
         why="the BLAS is chosen at 1.08x, inside the band where the rule by CPU kind decides"),
    dict(name="v325-rec-reps-rounded", file=REC,
         old="        reps = max(3, int(ROUND_FLOPS / (m * K * N)))",
         new="        reps = max(3, round(ROUND_FLOPS / (m * K * N)))",
         tests=[T_REC + "test_measure_on_stand_in_products_and_clock"] + OLD_REC,
         why="a round runs 5 products of S1's shapes and 4 of the synthesis network's, not 4 and 3"),
    dict(name="v325-rec-row-shapes-timed-against-rec-mul", file=REC,
         old="(blas.gemm_mul, blas.gemm_pack(W)))  # rows_pack's panels",
         new="(blas.blas_mul, blas.gemm_pack(W)))  # rows_pack's panels",
         tests=[T_REC + "test_measure_on_stand_in_products_and_clock"] + OLD_REC,
         why="the row shapes time rgemm against rec_mul's BLAS product, not the GEMM that runs them"),
    dict(name="v325-rec-dwh-blas-blocks-of-rgemm-rows", file=REC,
         old="        nr, nb = nr * m, nb * m ",
         new="        nr, nb = nr * m, nr * m ",
         tests=[T_REC + "test_measure_dwh_blocks_and_rows"] + OLD_REC,
         why="the BLAS's dWh blocks are cut to rgemm's rows: the two are timed on the same blocks"),
    dict(name="v325-rec-dwh-rows-r-before-m", file=REC,
         old="        rows.append([H, m, R, *best])",
         new="        rows.append([H, R, m, *best])",
         tests=[T_REC + "test_measure_dwh_blocks_and_rows"] + OLD_REC,
         why="the record's dWh rows give the rows in all where the rows of a chunk belong"),
    dict(name="v325-rec-dwh-reason-one-place", file=REC,
         old="rgemm's blocks took {ratio:.2f}x the BLAS's time\"",
         new="rgemm's blocks took {ratio:.1f}x the BLAS's time\"",
         tests=[T_REC + "test_decide_dwh_reasons_to_two_places_and_its_bound"] + OLD_REC,
         why="the dWh reason prints the measured ratio to one place: 0.87 shows as 0.9"),
    dict(name="v325-rec-lock-beside-the-folder", file=REC,
         old='        with exclusive(path + ".lock", CHILD_TIMEOUT_S + 60):',
         new='        with exclusive(folder + ".lock", CHILD_TIMEOUT_S + 60):',
         tests=[T_REC + "test_the_record_is_made_under_its_own_lock_file"] + OLD_REC,
         why="the lock file is made beside the record folder, one for every host key (and outside it)"),
    dict(name="v325-rec-unmakeable-folder-ends-the-search", file=REC,
         old="        except OSError:\n            continue\n        if not os.access(folder, os.W_OK):",
         new="        except OSError:\n            return None\n        if not os.access(folder, os.W_OK):",
         tests=[T_REC + "test_a_folder_that_cannot_be_made_is_passed_over"] + OLD_REC,
         why="a record folder that cannot be made gives up: the user's cache folder is never tried"),
    dict(name="v325-rec-unwritable-folder-ends-the-search", file=REC,
         old="        if not os.access(folder, os.W_OK):\n            continue",
         new="        if not os.access(folder, os.W_OK):\n            return None",
         tests=[T_REC + "test_a_folder_that_cannot_be_written_is_passed_over"] + OLD_REC,
         why="a read-only package folder gives up: no record, the rule decides on every start"),
    # ---- the kernel cache's names: lnrnn/compiling.py ----
    dict(name="v325-comp-file-base-micro-version", file=COMP,
         old="{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}",
         new="{sys.version_info[0]}{sys.version_info[2]}{getattr(sys, 'abiflags', '')}",
         tests=[T_COMP + "test_file_base_is_the_name_numba_gives"] + OLD_COMP,
         why="the index checked is named with Python's micro version: never the file Numba reads"),
    dict(name="v325-comp-exclusive-held-reported-not", file=COMP,
         old="                    held = True\n",
         new="                    held = False\n",
         tests=[T_COMP + "test_exclusive_yields_whether_it_holds_the_lock"] + OLD_COMP,
         why="exclusive yields False while it holds the lock: a held lock reads as a wait that ran out"),
    dict(name="v325-comp-absent-index-reported-deleted", file=COMP,
         old="    except FileNotFoundError:\n        return False",
         new="    except FileNotFoundError:\n        return True",
         tests=[T_COMP + "test_absent_stale_and_garbled_indexes"] + OLD_COMP,
         why="a function without an index is reported as having had its index deleted"),
    # ---- lnrnn info: lnrnn/commands/info.py ----
    dict(name="v325-info-because-the-per-step-reason", file=INFO,
         old='f"lnrnn kernels multiply with: {BLAS}, because {BLAS_WHY}; ',
         new='f"lnrnn kernels multiply with: {BLAS}, because {REC_WHY}; ',
         tests=[T_INFO + "test_the_choice_lines_name_each_choice_and_its_own_reason"] + OLD_INFO,
         why="lnrnn info gives the per-step product's reason as the reason for the BLAS"),
]
