"""Planted bugs, round 232 (format: tests/mutants/mutants.py): single-line slips in the stroke data's preparation,
on lines no earlier round mutates: make_task packing the validation lines with the training split's names and
texts, its description naming the dx standard deviation for dy as well; the packed arrays' refusals naming the
first 0 length instead of the first negative one, giving the count of lengths as the rows when they do not add
up, writing the point limit 10000 beside a count of 10,001, and numbering an empty line of a packed .npz from 0 in
a sentence that counts from 1; IAM-OnDB's defensive XML reading looking for a document type only in the first
KiB (one after a longer prolog comment is parsed and its entities expanded), naming the declaration '!DOCTYPE',
capping a line file at a task list's 1 MiB; a form whose line files skip a number refused as 'numbered 1 to
<count>', a folder with one task list told to remove the absent one, exactly three forms in both lists shown with
an ellipsis, an ascii/ without any transcription counting the test sets' unread lines as read, and texts left
unrealigned after a line without one is skipped.

14 mutants. Against the existing targeted tests alone (test_strokes_data, test_values_strokes, test_text_strokes,
test_values_stroke_files, test_values_iamondb) 6 were caught and 8 missed: the description's dy, the negative
length's entry, the rows count, the DOCTYPE after the first KiB, the line numbers of a mismatched form, the lone
task list's advice, the three-form ellipsis and the count of lines read (each refusal was matched on a part of
its sentence, or never met at the edge where the slip shows). The new value tests catch every mutant on their
own (checked with the old files taken off the lists): test_values232_strokes (two splits written here in stroke-3,
each with a glitch step and a one-point line: the scale as the std of the kept training offsets by hand, dx +-2
and dy +-0.5, exactly 2 and 0.5; every kept line as its hand-fixed rows over that scale; names, texts and the
alphabet of each split past its skipped line; the description as one sentence written out),
test_values232_stroke_files (refusals word for word from arrays written by numpy.savez, nothing written beside
them: lengths 3, 0, -2, 1, -5 in each packed layout, 3 lengths adding to 6 beside 7 rows, 10,000 points read and
10,001 refused, empty lines 2 and 3), test_values232_iamondb (files in IAM-OnDB's own format: a DOCTYPE after a 2 KiB
prolog comment and an ENTITY inside the StrokeSet refused in one sentence, nothing expanded; a line file past
1 MiB against stroke-3 by hand and the line cap at the file's size and one byte under it; refusals word for word
for line files 1, 2, 4 under 3 CSR lines, each lone task list, 3 and 4 forms in both lists, an ascii/ holding
only the unread test set's text (3 lines read of 6); texts by line name after a blank CSR line, the skip counted).
Dropped before the catalogue as equivalent: drop_long_steps' copy of the kept rows left out (fancy indexing
copies already), read_limited reading limit bytes instead of limit + 1 (the size was checked just before), the
official split's lines not sorted back into file order (each split keeps its own order either way, and texts are
looked up per file), the form's line numbers left unsorted (the files are sorted, and IAM-OnDB's two-digit
numbers sort as numbers). Resampling and augmentation live in kanjivg.py, hershey.py and tasks.py, outside this
round's modules.

    python tests/mutants/run.py --only 'v232-*'
"""
STROKES = "lnrnn/data/strokes.py"
SF = "lnrnn/data/stroke_files.py"
IAM = "lnrnn/data/iamondb.py"

OLD = ["tests/data/test_strokes_data.py", "tests/data/test_values_strokes.py", "tests/data/test_text_strokes.py",
       "tests/data/test_values_stroke_files.py", "tests/data/test_values_iamondb.py"]
T_STROKES = "tests/data/test_values232_strokes.py"
T_FILES = "tests/data/test_values232_stroke_files.py"
T_IAM = "tests/data/test_values232_iamondb.py"

MUTANTS = [
    # ---- make_task: normalization and the description
    dict(name="v232-strokes-val-names-from-train", file=STROKES,
         old='    sets = {}\n    for which, raw in (("train", train), ("val", val)):',
         new='    sets = {}\n    for which, raw in (("train", train), ("val", train)):',
         tests=[f"{T_STROKES}::test_each_split_keeps_its_lines_names_and_texts_past_the_skipped_ones"] + OLD,
         why="the validation lines are packed with the training split's names and texts"),
    dict(name="v232-strokes-description-sx-twice", file=STROKES,
         old="({scale[0]:.3g}, {scale[1]:.3g})",
         new="({scale[0]:.3g}, {scale[0]:.3g})",
         tests=[f"{T_STROKES}::test_the_description_names_both_standard_deviations"] + OLD,
         why="the description names the dx standard deviation as dy's as well"),
    # ---- stroke files: refusals of malformed arrays
    dict(name="v232-files-negative-length-first-non-positive", file=SF,
         old="i = int(np.argmax(lengths < 0))",
         new="i = int(np.argmax(lengths <= 0))",
         tests=[f"{T_FILES}::test_a_negative_length_is_named_by_its_value_and_entry_past_an_empty_one"] + OLD,
         why="the refusal of a negative length names the first empty (0) entry before it instead"),
    dict(name="v232-files-sum-message-counts-lengths", file=SF,
         old='f"{len(strokes)} row{\'s\' * (len(strokes) != 1)}; the arrays',
         new='f"{len(lengths)} row{\'s\' * (len(lengths) != 1)}; the arrays',
         tests=[f"{T_FILES}::test_lengths_that_do_not_add_up_give_both_counts"] + OLD,
         why="lengths that do not add up to the rows: the sentence gives the number of lengths as the rows"),
    dict(name="v232-files-limit-without-separator", file=SF,
         old='more than the limit of "\n                        f"{MAX_POINTS:,}; split it',
         new='more than the limit of "\n                        f"{MAX_POINTS}; split it',
         tests=[f"{T_FILES}::test_the_point_limit_past_ten_thousand_with_separators"] + OLD,
         why="the point limit is written 10000, not 10,000 as the count before it"),
    dict(name="v232-files-empty-line-numbered-from-0", file=SF,
         old="line {i + 1} has no point",
         new="line {i} has no point",
         tests=[f"{T_FILES}::test_an_empty_line_is_counted_from_one"] + OLD,
         why="an empty line of a packed .npz is named by its index from 0 in a sentence that counts from 1"),
    # ---- IAM-OnDB: XML read defensively
    dict(name="v232-iam-forbidden-only-in-the-head", file=IAM,
         old="        if token in raw:",
         new="        if token in raw[:1024]:",
         tests=[f"{T_IAM}::test_a_doctype_after_a_long_prolog_comment_is_refused_never_expanded"] + OLD,
         why="a document type declared after a long prolog comment is parsed: its entities expand"),
    dict(name="v232-iam-declares-with-bang", file=IAM,
         old="declares {token[2:].decode()}",
         new="declares {token[1:].decode()}",
         tests=[f"{T_IAM}::test_a_doctype_after_a_long_prolog_comment_is_refused_never_expanded",
                f"{T_IAM}::test_an_entity_declared_inside_the_stroke_set_is_named"] + OLD,
         why="the refusal says 'declares !DOCTYPE' instead of naming DOCTYPE"),
    dict(name="v232-iam-xml-limit-of-task-lists", file=IAM,
         old='read_limited(path, MAX_XML_BYTES, "XML file")',
         new='read_limited(path, MAX_LIST_BYTES, "XML file")',
         tests=[f"{T_IAM}::test_a_line_file_past_one_mebibyte_is_read_and_capped_at_its_own_limit"] + OLD,
         why="a line file is capped at a task list's 1 MiB: long real lines are refused"),
    # ---- IAM-OnDB: transcriptions, task lists, skipped lines
    dict(name="v232-iam-csr-mismatch-numbered-to-count", file=IAM,
         old="(numbered {numbers[0]} to {numbers[-1]})",
         new="(numbered {numbers[0]} to {len(numbers)})",
         tests=[f"{T_IAM}::test_a_form_with_line_files_1_2_and_4_is_refused_with_its_numbers"] + OLD,
         why="a form whose line files skip a number: the refusal gives their count as the last number"),
    dict(name="v232-iam-one-list-remove-the-absent-one", file=IAM,
         old="or remove {there} to split",
         new="or remove {absent} to split",
         tests=[f"{T_IAM}::test_one_task_list_of_two_is_refused_naming_each"] + OLD,
         why="a folder with one task list: the refusal says to remove the list that is not there"),
    dict(name="v232-iam-both-lists-ellipsis-at-three", file=IAM,
         old='", ..." if len(both) > 3 else ""',
         new='", ..." if len(both) >= 3 else ""',
         tests=[f"{T_IAM}::test_forms_in_both_lists_are_shown_three_at_most"] + OLD,
         why="exactly three forms in both lists are shown with '...' as if more followed"),
    dict(name="v232-iam-no-transcription-counts-unread-files", file=IAM,
         old='no transcription of the {len(files)} line"',
         new='no transcription of the {len(all_files)} line"',
         tests=[f"{T_IAM}::test_no_transcription_counts_only_the_lines_the_split_reads"] + OLD,
         why="with the task lists, the refusal counts every line file found, the test sets' as well, as read"),
    dict(name="v232-iam-texts-not-realigned", file=IAM,
         old="        texts = [texts[i] for i in keep]\n",
         new="",
         tests=[f"{T_IAM}::test_texts_stay_with_their_lines_after_a_skipped_one"] + OLD,
         why="after a line without transcription is skipped, the lines after it carry the texts of the lines before"),
]
