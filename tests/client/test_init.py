"""``loko init``: writes loko.toml from options or answers, never the API key."""

import tomllib

import pytest

from loko.client import commands

URL = "https://loko.example.test"
PROJECT = "0190d2a4-5c3e-7b51-9c0f-3c8e2f1a9b77"
LOCALES = "locales/{language}/{fileName}.json"


def read_config(folder) -> dict:
    return tomllib.loads((folder / "loko.toml").read_text(encoding="utf-8"))


@pytest.fixture
def on_a_terminal(monkeypatch):
    monkeypatch.setattr(commands, "stdin_is_terminal", lambda: True)


def init(loko, *extra, **kwargs):
    return loko("init", "--url", URL, "--project", PROJECT, "--path", LOCALES, *extra, **kwargs)


def test_init_writes_the_settings(loko, workdir):
    result = init(loko, "--source-language", "en", "--yes")
    assert result.exit_code == 0, result.output
    assert read_config(workdir) == {
        "url": URL,
        "project": PROJECT,
        "source_language": "en",
        "files": [{"path": LOCALES, "format": "json"}],
    }


def test_init_detects_the_format_from_the_extension(loko, workdir):
    assert (
        loko("init", "--url", URL, "--project", PROJECT, "--path", "po/{language}/{fileName}.po").exit_code
        == 0
    )
    assert read_config(workdir)["files"] == [{"path": "po/{language}/{fileName}.po", "format": "po"}]


def test_init_never_writes_the_api_key(loko, workdir):
    result = init(loko, "--yes", env={"LOKO_API_KEY": "loko_secret_value"})
    assert "loko_secret_value" not in (workdir / "loko.toml").read_text(encoding="utf-8")
    assert "LOKO_API_KEY" in result.stdout


def test_init_advises_ignoring_the_state_folder(loko, workdir):
    assert ".gitignore" in init(loko, "--yes").stdout


def test_init_gives_no_advice_when_the_state_folder_is_ignored(loko, workdir):
    (workdir / ".gitignore").write_text("node_modules/\n.loko/\n", encoding="utf-8")
    assert ".gitignore" not in init(loko, "--yes").stdout


def test_init_counts_the_files_it_finds(loko, workdir):
    (workdir / "locales" / "en").mkdir(parents=True)
    (workdir / "locales" / "en" / "app.json").write_text("{}", encoding="utf-8")
    assert "(1 found here)" in init(loko, "--yes").stdout


def test_init_refuses_to_overwrite(loko, workdir):
    (workdir / "loko.toml").write_text("# mine\n", encoding="utf-8")
    result = init(loko, "--yes")
    assert result.exit_code == 1
    assert "--force" in result.stderr
    assert (workdir / "loko.toml").read_text(encoding="utf-8") == "# mine\n"


def test_init_overwrites_with_force(loko, workdir):
    (workdir / "loko.toml").write_text("# mine\n", encoding="utf-8")
    assert init(loko, "--yes", "--force").exit_code == 0
    assert read_config(workdir)["url"] == URL


def test_missing_value_with_yes_is_a_usage_error(loko, workdir, on_a_terminal):
    result = loko("init", "--project", PROJECT, "--path", LOCALES, "--yes")
    assert result.exit_code == 2
    assert "--url" in result.stderr
    assert not (workdir / "loko.toml").exists()


def test_missing_value_without_a_terminal_is_a_usage_error(loko, workdir):
    assert loko("init", "--url", URL, "--path", LOCALES).exit_code == 2


def test_undetectable_format_without_a_terminal_is_a_usage_error(loko, workdir):
    result = loko("init", "--url", URL, "--project", PROJECT, "--path", "l/{language}/{fileName}.txt")
    assert result.exit_code == 2
    assert "--format" in result.stderr


def test_template_without_language_is_a_usage_error(loko, workdir):
    result = loko("init", "--url", URL, "--project", PROJECT, "--path", "locales/{fileName}.json", "--yes")
    assert result.exit_code == 2
    assert "{language}" in result.stderr


def test_multilingual_format_refuses_a_language_in_the_template(loko, workdir):
    result = loko("init", "--url", URL, "--project", PROJECT, "--path", "{language}/{fileName}.csv", "--yes")
    assert result.exit_code == 2


def test_environment_supplies_url_and_project(loko, workdir):
    result = loko("init", "--path", LOCALES, "--yes", env={"LOKO_URL": URL, "LOKO_PROJECT": PROJECT})
    assert result.exit_code == 0, result.output
    assert (read_config(workdir)["url"], read_config(workdir)["project"]) == (URL, PROJECT)


def test_init_asks_on_a_terminal(loko, workdir, on_a_terminal):
    answers = "\n".join([URL, PROJECT, "strings/{language}.lproj/{fileName}.strings", "", "de"]) + "\n"
    result = loko("init", input=answers)
    assert result.exit_code == 0, result.output
    assert read_config(workdir) == {
        "url": URL,
        "project": PROJECT,
        "source_language": "de",
        "files": [{"path": "strings/{language}.lproj/{fileName}.strings", "format": "strings"}],
    }


def test_init_asks_again_after_an_invalid_answer(loko, workdir, on_a_terminal):
    answers = "\n".join(["ftp://nope", URL, PROJECT, "no-placeholders.json", LOCALES, "", ""]) + "\n"
    result = loko("init", input=answers)
    assert result.exit_code == 0, result.output
    assert read_config(workdir)["url"] == URL
    assert read_config(workdir)["files"][0]["path"] == LOCALES


def test_plain_http_to_another_host_is_warned_about(loko, workdir):
    result = loko(
        "init", "--url", "http://loko.example.test", "--project", PROJECT, "--path", LOCALES, "--yes"
    )
    assert result.exit_code == 0
    assert "not https" in result.stderr


def test_init_reads_nested_json_from_the_files_it_finds(loko, workdir):
    (workdir / "locales" / "en").mkdir(parents=True)
    (workdir / "locales" / "en" / "common.json").write_text('{"cart": {"title": "Cart"}}', encoding="utf-8")
    assert init(loko, "--yes").exit_code == 0
    assert read_config(workdir)["files"] == [{"path": LOCALES, "format": "json-nested"}]


def test_init_reads_rails_style_yaml_from_the_files_it_finds(loko, workdir):
    (workdir / "config" / "locales" / "en").mkdir(parents=True)
    (workdir / "config" / "locales" / "en" / "shop.yml").write_text("en:\n  title: Shop\n", encoding="utf-8")
    path = "config/locales/{language}/{fileName}.yml"
    assert loko("init", "--url", URL, "--project", PROJECT, "--path", path, "--yes").exit_code == 0
    assert read_config(workdir)["files"] == [{"path": path, "format": "yaml-nested"}]


def test_init_reads_xliff_2_from_the_files_it_finds(loko, workdir):
    (workdir / "xliff" / "de").mkdir(parents=True)
    (workdir / "xliff" / "de" / "shop.xlf").write_text(
        '<?xml version="1.0"?>\n'
        '<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en"/>\n',
        encoding="utf-8",
    )
    path = "xliff/{language}/{fileName}.xlf"
    assert loko("init", "--url", URL, "--project", PROJECT, "--path", path, "--yes").exit_code == 0
    assert read_config(workdir)["files"] == [{"path": path, "format": "xliff2"}]


def test_an_explicit_format_wins_over_the_files_found(loko, workdir):
    (workdir / "locales" / "en").mkdir(parents=True)
    (workdir / "locales" / "en" / "common.json").write_text('{"cart": {"title": "Cart"}}', encoding="utf-8")
    assert init(loko, "--format", "json", "--yes").exit_code == 0
    assert read_config(workdir)["files"] == [{"path": LOCALES, "format": "json"}]
