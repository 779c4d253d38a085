"""Matching the lines read on a screenshot to a project's source texts (loko/screenshots/ocr.py):
exact and near texts, placeholders as wildcards, wrapped texts, short texts left out."""

from loko.screenshots.ocr import Line, match


def line(text: str, x: int = 10, y: int = 10, width: int = 200, height: int = 20) -> Line:
    return Line(text, x, y, width, height)


def found(lines, sources) -> dict[str, tuple[int, int]]:
    return {translation_id: (hit.x, hit.y) for translation_id, hit in match(lines, sources)}


def test_a_text_on_a_line_matches_it_without_case_or_extra_spaces():
    assert found([line("SAVE   changes", y=50)], [("k1", "Save changes")]) == {"k1": (10, 50)}


def test_a_text_read_with_an_error_still_matches_a_text_read_wrong_by_far_does_not():
    assert found([line("Welc0me back")], [("k1", "Welcome back")]) == {"k1": (10, 10)}
    assert found([line("Something else entirely")], [("k1", "Welcome back")]) == {}


def test_placeholders_match_whatever_stands_in_their_place():
    sources = [("k1", "You have {count} items in your cart"), ("k2", "Hello, %s!"), ("k3", "Hi {{name}}")]
    lines = [line("You have 3 items in your cart", y=1), line("Hello, Ada!", y=2), line("Hi Grace", y=3)]
    assert found(lines, sources) == {"k1": (10, 1), "k2": (10, 2), "k3": (10, 3)}


def test_an_icu_plural_matches_its_words_around_the_placeholder():
    sources = [("k1", "{count, plural, one {# item} other {# items}} left")]
    assert found([line("5 items left")], sources) == {"k1": (10, 10)}


def test_a_text_wrapped_on_two_lines_matches_the_box_around_both():
    lines = [line("Your order ships", y=100, height=20), line("within two days", y=122, height=20)]
    hits = match(lines, [("k1", "Your order ships within two days")])
    assert [(translation_id, hit.y, hit.height) for translation_id, hit in hits] == [("k1", 100, 42)]


def test_short_texts_are_not_proposed():
    assert found([line("OK")], [("k1", "OK")]) == {}


def test_each_text_is_proposed_once_at_its_best_line():
    lines = [line("Save change", y=1), line("Save changes", y=2)]
    assert found(lines, [("k1", "Save changes")]) == {"k1": (10, 2)}
