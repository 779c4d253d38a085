# ruff: noqa: RUF001 (the marks of other scripts are what these tests are about)
"""Ending punctuation as the source's, in the value's language's marks."""

from loko.checks import punctuation
from tests.unit.checks import fixes, messages


def test_a_lost_question_mark_is_flagged():
    assert messages(punctuation, "Datei löschen", "Delete file?") == [
        "The value ends with no punctuation; the source with a question mark."
    ]


def test_a_lost_question_mark_is_fixed():
    assert fixes(punctuation, "Datei löschen", "Delete file?") == ["Datei löschen?"]


def test_a_full_stop_for_a_question_mark_is_flagged():
    assert messages(punctuation, "Datei löschen.", "Delete file?") == [
        "The value ends with a full stop; the source with a question mark."
    ]


def test_an_arabic_question_mark_answers_a_question_mark():
    assert messages(punctuation, "حذف الملف؟", "Delete file?", "ar") == []


def test_an_arabic_fix_writes_the_arabic_question_mark():
    assert fixes(punctuation, "حذف الملف.", "Delete file?", "ar") == ["حذف الملف؟"]


def test_a_chinese_full_stop_answers_a_full_stop():
    assert messages(punctuation, "文件已保存。", "File saved.", "zh-Hans") == []


def test_a_chinese_fix_writes_the_ideographic_full_stop():
    assert fixes(punctuation, "文件已保存", "File saved.", "zh-Hans") == ["文件已保存。"]


def test_a_fullwidth_exclamation_mark_answers_an_exclamation_mark():
    assert messages(punctuation, "完了！", "Done!", "ja") == []


def test_a_french_colon_after_a_space_passes():
    assert messages(punctuation, "Nom :", "Name:", "fr") == []


def test_a_french_non_breaking_space_before_a_question_mark_passes():
    assert messages(punctuation, "Supprimer le fichier\u00a0?", "Delete the file?", "fr") == []


def test_a_french_fix_puts_a_non_breaking_space_before_the_colon():
    assert fixes(punctuation, "Nom", "Name:", "fr") == ["Nom\u00a0:"]


def test_a_spanish_question_with_an_opening_mark_passes():
    assert messages(punctuation, "¿Eliminar el archivo?", "Delete the file?", "es") == []


def test_a_greek_semicolon_is_a_question_mark():
    assert messages(punctuation, "Διαγραφή αρχείου;", "Delete file?", "el") == []


def test_an_armenian_full_stop_may_end_a_question():
    assert messages(punctuation, "Ջնջե՞լ ֆայլը։", "Delete the file?", "hy") == []


def test_thai_has_no_full_stop():
    assert messages(punctuation, "บันทึกไฟล์แล้ว", "File saved.", "th") == []


def test_a_devanagari_danda_is_a_full_stop():
    assert messages(punctuation, "फ़ाइल सहेजी गई।", "File saved.", "hi") == []


def test_a_hindi_pipe_stands_for_the_danda():
    assert messages(punctuation, "फ़ाइल सहेजी गई|", "File saved.", "hi") == []


def test_an_ellipsis_character_answers_three_dots():
    assert messages(punctuation, "Wird geladen…", "Loading...") == []


def test_an_ellipsis_fix_keeps_the_sources_three_dots():
    assert fixes(punctuation, "Wird geladen", "Loading...") == ["Wird geladen..."]


def test_an_added_full_stop_is_flagged_and_removed():
    assert fixes(punctuation, "Datei speichern.", "Save file") == ["Datei speichern"]


def test_a_short_source_may_lose_its_full_stop():
    assert messages(punctuation, "Nr", "No.") == []


def test_japanese_may_end_a_colon_with_a_full_stop():
    assert messages(punctuation, "次のファイル。", "The following files:", "ja") == []


def test_a_lost_colon_is_flagged():
    assert messages(punctuation, "Name", "Name:") == [
        "The value ends with no punctuation; the source with a colon."
    ]


def test_trailing_whitespace_does_not_hide_the_mark():
    assert messages(punctuation, "Datei gespeichert. \n", "File saved.\n") == []


def test_a_lone_full_stop_does_not_answer_three_dots():
    assert messages(punctuation, "Wird geladen.", "Loading...") == [
        "The value ends with a full stop; the source with an ellipsis."
    ]


def test_a_fix_replaces_every_final_mark():
    assert fixes(punctuation, "Wirklich?!", "Really?") == ["Wirklich?"]
