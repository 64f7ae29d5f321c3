"""Planted bugs, round 322 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in ``lnrnn data mnist`` (lnrnn/commands/data.py), ``lnrnn sample`` (lnrnn/commands/sample.py),
``lnrnn info`` (lnrnn/commands/info.py) and the shared options (lnrnn/commands/options.py), seventeenth pass: a
file in --dest that verified downloaded again anyway; the download verified at its final name instead of the
temporary file; --subset left out meaning the 10k test pair, not the documented 'all'; a connection that breaks
off mid-download (a plain OSError) escaping as a traceback; a full disk leaving the temporary file behind, or
crashing on the wrapper's missing strerror; the --bias refusal naming the seed; --attention without --text
refused with --judge's sentence; the .npz of plain samples asking judged lines for their keys; the picture drawn
without its title; info's BLAS entries joined by ', '; the kernels' cache tag shown as the BLAS description; a
threading layer that cannot be read crashing info (only ImportError caught); train without --split (dropped from
task_options).

15 mutants (14 of the round and one for the bug it found). Against the old targeted files alone: 6 of 15 (missed:
the default subset, a broken read escaping, a full disk keeping the temp file or reading strerror off the wrapper,
the failed write's loud close (the bug this round found), the --bias refusal naming the seed, --attention refused
with --judge's sentence, an unreadable threading layer escaping, --split lost from the task options). The old files:
test_values_data and test_values37_data (data mnist), test_values272_sample_cli and test_values245_output_checks
(sample), test_values_info and test_values271_options_info (info, options). The new value tests catch every mutant
on their own (checked with the old files taken off the lists): test_values322_data_sample (data mnist against a
throw-away mirror serving a 5-label IDX file whose content MD5 is worked out in the test: the kept file with the
file gone from the mirror, the downloaded file's line with URL and MD5 word for word, the default subset with only
'all' listing the file, a response that loses its connection after 3 bytes and a disk with no room, each refused
word for word with --dest left empty; sample with the run, sampler and drawing replaced by recorders: --bias -0.5,
nan and -inf, --attention and --judge without --text refused word for word with nothing written, the title 'lstm on
strokes-synthetic, update 5, bias 1.5, seed 7' at the drawing, the .npz holding exactly points and lengths as the
stand-in samples written out), test_values322_info_options (info's BLAS line against threadpoolctl's pools and
numpy's and scipy's show_config(mode='dicts'), the kernels' line against lnrnn.kernels.cpu.blas's BLAS, BLAS_WHY and
BLAS_TAG, the threading layer's line with numba.threading_layer raising, train --split 10/abc and 7/0 refused in the
split parser's words).

Left out as equivalent: the download's chunk size (1 << 16; any size streams the same bytes); the progress bar's
Content-Length total and its final total (stderr under -q shows nothing); DEFAULT_MIRROR without its trailing
slash (the URL is built from mirror.rstrip('/')); str(path) for load_run(path) (click passes a str); the
threadpool's num_threads read with a default (threadpoolctl always reports it). Left out as outside the focus:
the help texts of the shared options (read by no command's behaviour). Left out for cost: the judged keys of the
.npz and report lines (they need a trained CTC reader). The --judge refusal without --text is read word for word
by the new tests, but its mutant (the --attention sentence) would repeat the --attention one and is not planted.

One real bug found by test_a_full_disk_met_by_the_flush_is_reported_as_a_write_failure, and fixed: when the disk
filled on a chunk smaller than the file's buffer, f.flush() raised the write failure, then the with-block's close
flushed again and its OSError replaced it, so the refusal said the download 'broke off' and to run it again
instead of naming the full disk. A failed write now closes the file at once, quietly (the with-block's close is then a
no-op); v322-data-failed-write-closes-loudly plants the old behaviour back.

    python tests/mutants/run.py --only 'v322-*'
"""
DATA = "lnrnn/commands/data.py"
SAMPLE = "lnrnn/commands/sample.py"
INFO = "lnrnn/commands/info.py"
OPTIONS = "lnrnn/commands/options.py"

T_DS = "tests/commands/test_values322_data_sample.py::"
T_IO = "tests/commands/test_values322_info_options.py::"
OLD_DATA = ["tests/commands/test_values_data.py", "tests/commands/test_values37_data.py"]
OLD_SAMPLE = ["tests/commands/test_values272_sample_cli.py", "tests/commands/test_values245_output_checks.py"]
OLD_INFO = ["tests/commands/test_values_info.py", "tests/commands/test_values271_options_info.py"]

MUTANTS = [
    # ---- lnrnn data mnist: lnrnn/commands/data.py ----
    dict(name="v322-data-verified-file-downloaded-again", file=DATA,
         old="                continue\n",
         new="                pass\n",
         tests=[T_DS + "test_a_verified_file_in_dest_is_kept_and_the_mirror_not_asked"] + OLD_DATA,
         why="a file in --dest that verified is announced as present, then downloaded again anyway"),
    dict(name="v322-data-verifies-the-final-path", file=DATA,
         old="            verify(tmp, name)\n",
         new="            verify(path, name)\n",
         tests=[T_DS + "test_a_fresh_download_is_verified_and_announced_word_for_word",
                T_DS + "test_subset_left_out_is_all"] + OLD_DATA,
         why="the download is verified at its final name, where nothing is yet: every fresh download crashes"),
    dict(name="v322-data-subset-default-test", file=DATA,
         old='type=click.Choice(list(SUBSETS)), default="all", show_default=True,',
         new='type=click.Choice(list(SUBSETS)), default="test", show_default=True,',
         tests=[T_DS + "test_subset_left_out_is_all"] + OLD_DATA,
         why="--subset left out downloads only the 10k test pair, not the documented four files"),
    dict(name="v322-data-broken-read-escapes", file=DATA,
         old="    except (OSError, urllib.error.URLError) as e:\n",
         new="    except urllib.error.URLError as e:\n",
         tests=[T_DS + "test_a_download_that_breaks_off_is_one_sentence_and_leaves_nothing"] + OLD_DATA,
         why="a connection reset mid-download (a plain OSError) escapes as a traceback instead of one sentence"),
    dict(name="v322-data-full-disk-keeps-the-temp-file", file=DATA,
         old="        os.unlink(tmp)\n        e = w.args[0]\n",
         new="        pass\n        e = w.args[0]\n",
         tests=[T_DS + "test_a_full_disk_during_the_download_leaves_nothing"] + OLD_DATA,
         why="a full disk during a download leaves the partial .download- file in --dest"),
    dict(name="v322-data-full-disk-error-is-the-wrapper", file=DATA,
         old="        e = w.args[0]\n",
         new="        e = w\n",
         tests=[T_DS + "test_a_full_disk_during_the_download_leaves_nothing"] + OLD_DATA,
         why="the write failure's message reads strerror off the wrapper, which has none: a traceback"),
    dict(name="v322-data-failed-write-closes-loudly", file=DATA,
         old="                    except OSError:\n                        pass\n",
         new="                    except ValueError:\n                        pass\n",
         tests=[T_DS + "test_a_full_disk_met_by_the_flush_is_reported_as_a_write_failure"] + OLD_DATA,
         why="after a failed write the file's close flushes again and its OSError replaces the write failure: the "
             "refusal says the download broke off instead of naming the full disk"),
    # ---- lnrnn sample: lnrnn/commands/sample.py ----
    dict(name="v322-sample-bias-refusal-names-seed", file=SAMPLE,
         old='raise UserError(f"--bias must be 0 or positive, not {bias}.")',
         new='raise UserError(f"--bias must be 0 or positive, not {seed}.")',
         tests=[T_DS + "test_a_bias_below_zero_or_not_a_number_is_refused_naming_it"] + OLD_SAMPLE,
         why="a negative or NaN --bias is refused naming the seed's value instead"),
    dict(name="v322-sample-attention-refusal-says-judge", file=SAMPLE,
         old='raise UserError("--attention draws where the window read a --text line; give --text.")',
         new='raise UserError("--judge reads the lines a synthesis run writes; give them with --text.")',
         tests=[T_DS + "test_attention_without_text_is_refused_word_for_word"] + OLD_SAMPLE,
         why="--attention without --text is refused with --judge's sentence"),
    dict(name="v322-sample-npz-asks-unjudged-lines", file=SAMPLE,
         old="        if judged is not None:\n",
         new="        if judged is None:\n",
         tests=[T_DS + "test_the_npz_of_plain_samples_holds_points_and_lengths_only"] + OLD_SAMPLE,
         why="an .npz without --judge iterates the missing judged lines: a traceback after sampling"),
    dict(name="v322-sample-title-not-drawn", file=SAMPLE,
         old="        draw_strokes(lines, out, title=title)\n",
         new="        draw_strokes(lines, out)\n",
         tests=[T_DS + "test_the_title_reaches_the_drawing"] + OLD_SAMPLE,
         why="the picture of plain samples has no title (cell, task, update, bias, seed)"),
    # ---- lnrnn info: lnrnn/commands/info.py ----
    dict(name="v322-info-blas-joined-by-comma", file=INFO,
         old='"BLAS: " + "; ".join(_blas()),',
         new='"BLAS: " + ", ".join(_blas()),',
         tests=[T_IO + "test_the_blas_line_lists_the_pools_then_the_builds"] + OLD_INFO,
         why="the BLAS entries are joined by ', ', which each entry's '(n threads, file)' also contains"),
    dict(name="v322-info-cache-tag-is-the-description", file=INFO,
         old='f"names ending -{BLAS_TAG} (one set per choice)",',
         new='f"names ending -{BLAS} (one set per choice)",',
         tests=[T_IO + "test_the_kernels_line_names_the_choice_and_its_cache_tag"] + OLD_INFO,
         why="the kernels' cache names are said to end with the BLAS description, not its tag"),
    dict(name="v322-info-threading-layer-error-escapes", file=INFO,
         old="    except Exception as e:  # noqa: BLE001\n",
         new="    except ImportError as e:  # noqa: BLE001\n",
         tests=[T_IO + "test_a_threading_layer_that_cannot_be_read_is_shown_unavailable"] + OLD_INFO,
         why="a threading layer that cannot be read crashes info instead of showing 'unavailable (why)'"),
    # ---- the shared options: lnrnn/commands/options.py ----
    dict(name="v322-options-split-not-in-task-options", file=OPTIONS,
         old="    data_dir_option, split_option,\n",
         new="    data_dir_option,\n",
         tests=[T_IO + "test_trains_split_reaches_its_parser"] + OLD_INFO,
         why="train loses --split: any split is refused as an unknown option"),
]
