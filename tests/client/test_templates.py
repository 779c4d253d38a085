"""Path templates: finding local files, reading language and file name out of a path, and
placing the export's entries."""

import pytest

from loko.client.templates import Match, PathTemplate, TemplateError
from tests.client.conftest import write

LOCALES = "locales/{language}/{fileName}.json"


def test_match_reads_language_and_file_name():
    assert PathTemplate(LOCALES).match("locales/de/common.json") == Match(
        "locales/de/common.json", "de", "common"
    )


def test_file_name_spans_folders():
    assert PathTemplate(LOCALES).match("locales/pt-BR/shop/cart.json").file_name == "shop/cart"


def test_file_name_keeps_the_extension_when_the_template_has_none():
    assert (
        PathTemplate("locales/{language}/{fileName}").match("locales/de/common.json").file_name
        == "common.json"
    )


def test_language_in_the_file_name():
    match = PathTemplate("i18n/{fileName}.{language}.json").match("i18n/app.zh_Hant.json")
    assert (match.language, match.file_name) == ("zh-Hant", "app")


@pytest.mark.parametrize(
    ("template", "path", "code"),
    [
        ("locales/{language}/{fileName}.json", "locales/pt-BR/app.json", "pt-BR"),
        ("po/{locale}/{fileName}.po", "po/pt_BR/app.po", "pt-BR"),
        ("po/{locale}/{fileName}.po", "po/zh_Hant_TW/app.po", "zh-Hant-TW"),
        ("res/values-{android}/{fileName}.xml", "res/values-pt-rBR/strings.xml", "pt-BR"),
        ("res/values-{android}/{fileName}.xml", "res/values-b+sr+Latn/strings.xml", "sr-Latn"),
        ("res/values-{android}/{fileName}.xml", "res/values-de/strings.xml", "de"),
    ],
)
def test_each_form_of_the_language_reads_back_as_the_canonical_code(template, path, code):
    parsed = PathTemplate(template)
    assert parsed.match(path).language == code
    assert parsed.path_for(code, parsed.match(path).file_name) == path


def test_a_path_holding_an_unknown_code_is_not_a_match():
    assert PathTemplate(LOCALES).match("locales/xx-bogus/app.json") is None


def test_a_template_mixing_two_forms_of_the_language_is_refused():
    with pytest.raises(TemplateError, match="mixes"):
        PathTemplate("{language}/{fileName}.{locale}.po")


def test_a_second_language_must_repeat_the_first():
    template = PathTemplate("{language}/{fileName}.{language}.po")
    assert template.match("de/app.de.po") is not None
    assert template.match("de/app.fr.po") is None


def test_no_match_for_another_extension_or_a_folder_that_is_not_a_language():
    template = PathTemplate(LOCALES)
    assert template.match("locales/de/common.yml") is None
    assert template.match("locales/README/common.json") is None


def test_multilingual_template_has_no_language():
    match = PathTemplate("translations/{fileName}.csv", multilingual=True).match("translations/app.csv")
    assert (match.language, match.file_name) == (None, "app")


@pytest.mark.parametrize(
    "text",
    [
        "locales/{fileName}.json",
        "locales/{language}/messages.json",
        "locales/{language}/{fileName}/{fileName}.json",
        "/abs/{language}/{fileName}.json",
        "../up/{language}/{fileName}.json",
        "locales\\{language}\\{fileName}.json",
        "locales/{lang}/{fileName}.json",
    ],
)
def test_unusable_templates_are_refused(text):
    with pytest.raises(TemplateError):
        PathTemplate(text)


def test_multilingual_template_refuses_a_language():
    with pytest.raises(TemplateError):
        PathTemplate("{language}/{fileName}.csv", multilingual=True)


def test_find_globs_the_template_and_skips_what_does_not_fit(tmp_path):
    write(
        tmp_path,
        {
            "locales/en/common.json": "{}",
            "locales/de/shop/cart.json": "{}",
            "locales/de/notes.txt": "",
            "locales/not-a-language/x.json": "{}",
            "other/en/common.json": "{}",
        },
    )
    found = PathTemplate(LOCALES).find(tmp_path)
    assert [(m.path, m.language, m.file_name) for m in found] == [
        ("locales/de/shop/cart.json", "de", "shop/cart"),
        ("locales/en/common.json", "en", "common"),
    ]


def test_find_leaves_hidden_folders_out(tmp_path):
    write(tmp_path, {"locales/en/.cache/old.json": "{}", "locales/en/app.json": "{}"})
    assert [m.path for m in PathTemplate(LOCALES).find(tmp_path)] == ["locales/en/app.json"]


def test_find_takes_glob_characters_in_the_template_literally(tmp_path):
    write(tmp_path, {"[web]/en/app.json": "{}", "w/en/app.json": "{}"})
    assert [m.path for m in PathTemplate("[web]/{language}/{fileName}.json").find(tmp_path)] == [
        "[web]/en/app.json"
    ]


def test_path_for_places_a_file():
    assert PathTemplate(LOCALES).path_for("de", "shop/cart") == "locales/de/shop/cart.json"


def test_export_entry_goes_to_its_template_path():
    assert PathTemplate(LOCALES).path_for_export_entry("de/common.json", ".json") == "locales/de/common.json"


def test_export_entry_extension_is_not_added_twice():
    template = PathTemplate("locales/{language}/{fileName}")
    assert template.path_for_export_entry("de/common.json", ".json") == "locales/de/common.json"


def test_export_entry_of_a_name_with_another_dot():
    assert (
        PathTemplate(LOCALES).path_for_export_entry("de/v1.2/app.json", ".json") == "locales/de/v1.2/app.json"
    )


def test_export_entry_goes_where_the_language_follows_the_file_name():
    template = PathTemplate("translations/{fileName}.{language}.xlf")
    assert template.path_for_export_entry("de/messages.xlf", ".xlf") == "translations/messages.de.xlf"


def test_export_entry_goes_where_the_language_is_the_file():
    template = PathTemplate("locales/{fileName}/{language}.xlf")
    assert template.path_for_export_entry("de/messages.xlf", ".xlf") == "locales/messages/de.xlf"


def test_export_entry_goes_to_a_template_with_another_extension_of_its_format():
    template = PathTemplate("locales/{language}/{fileName}.yaml")
    assert template.path_for_export_entry("de/common.yml", ".yml") == "locales/de/common.yaml"


def test_multilingual_export_entry_has_no_language_folder():
    template = PathTemplate("data/{fileName}.csv", multilingual=True)
    assert template.path_for_export_entry("shop/app.csv", ".csv") == "data/shop/app.csv"


@pytest.mark.parametrize(
    "name", ["../evil.json", "de/../../evil.json", "/etc/passwd", "de\\..\\x.json", "C:/x.json"]
)
def test_unsafe_export_entries_are_refused(name):
    with pytest.raises(TemplateError):
        PathTemplate(LOCALES).path_for_export_entry(name, ".json")


def test_export_entry_without_a_language_folder_is_refused():
    with pytest.raises(TemplateError):
        PathTemplate(LOCALES).path_for_export_entry("common.json", ".json")
