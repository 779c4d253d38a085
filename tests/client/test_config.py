"""Finding and reading the configuration: file, then environment, then command line."""

from pathlib import Path

import pytest

from loko.client.config import ConfigError, FileSet, config_toml, is_cleartext_remote, load_config
from tests.client.conftest import PROJECT_ID, write_config

KEY = {"LOKO_API_KEY": "loko_env"}


def load(cwd: Path, env=None, warnings=None, **options):
    return load_config(
        cwd=cwd,
        env=env if env is not None else KEY,
        warn=(warnings if warnings is not None else []).append,
        **options,
    )


def test_config_is_found_in_a_parent_folder(tmp_path):
    write_config(tmp_path)
    (tmp_path / "src" / "app").mkdir(parents=True)
    config = load(tmp_path / "src" / "app")
    assert (config.root, config.url, config.project) == (tmp_path, "https://loko.example.test", PROJECT_ID)
    assert config.files == (FileSet("locales/{language}/{fileName}.json", "json"),)


def test_yaml_config_is_read(tmp_path):
    (tmp_path / ".loko.yml").write_text(
        "url: https://loko.example.test/\nproject: p1\nsource_language: en\n"
        "files:\n  - path: res/values-{language}/{fileName}.xml\n    format: android\n",
        encoding="utf-8",
    )
    config = load(tmp_path)
    assert (config.url, config.project, config.source_language) == ("https://loko.example.test", "p1", "en")
    assert config.files == (FileSet("res/values-{language}/{fileName}.xml", "android"),)


def test_yaml_config_is_loaded_safely(tmp_path):
    (tmp_path / ".loko.yml").write_text("url: !!python/object/apply:os.getcwd []\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="does not parse"):
        load(tmp_path)


def test_format_defaults_to_the_extensions(tmp_path):
    (tmp_path / "loko.toml").write_text(
        'url = "https://x.test"\nproject = "p"\n[[files]]\npath = "po/{language}/{fileName}.po"\n',
        encoding="utf-8",
    )
    assert load(tmp_path).files[0].format == "po"


def test_environment_overrides_the_file(tmp_path):
    write_config(tmp_path)
    config = load(tmp_path, env={**KEY, "LOKO_URL": "https://other.test", "LOKO_PROJECT": "p2"})
    assert (config.url, config.project, config.api_key) == ("https://other.test", "p2", "loko_env")


def test_command_line_overrides_the_environment(tmp_path):
    write_config(tmp_path)
    config = load(
        tmp_path,
        env={**KEY, "LOKO_URL": "https://other.test"},
        url="https://cli.test",
        project="p3",
        api_key="loko_cli",
    )
    assert (config.url, config.project, config.api_key) == ("https://cli.test", "p3", "loko_cli")


def test_explicit_config_file_is_used(tmp_path):
    (tmp_path / "elsewhere").mkdir()
    write_config(tmp_path / "elsewhere")
    config = load(tmp_path, config_file=tmp_path / "elsewhere" / "loko.toml")
    assert config.root == tmp_path / "elsewhere"


def test_api_key_in_a_file_is_accepted_with_a_warning(tmp_path):
    write_config(tmp_path, api_key="loko_in_file")
    warnings = []
    assert load(tmp_path, env={}, warnings=warnings).api_key == "loko_in_file"
    assert any("LOKO_API_KEY" in warning for warning in warnings)


def test_missing_config_is_a_usage_error(tmp_path):
    with pytest.raises(ConfigError, match="loko init") as raised:
        load(tmp_path)
    assert raised.value.exit_code == 2


def test_missing_api_key_is_a_usage_error(tmp_path):
    write_config(tmp_path)
    with pytest.raises(ConfigError, match="LOKO_API_KEY"):
        load(tmp_path, env={})


def test_unknown_format_is_a_usage_error(tmp_path):
    write_config(tmp_path, files=[("l/{language}/{fileName}.txt", "text")])
    with pytest.raises(ConfigError, match="format 'text'"):
        load(tmp_path)


def test_invalid_toml_names_the_file(tmp_path):
    (tmp_path / "loko.toml").write_text("url = \n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"loko\.toml does not parse"):
        load(tmp_path)


def test_url_must_be_http(tmp_path):
    write_config(tmp_path, url="ftp://loko.example.test")
    with pytest.raises(ConfigError, match="https://"):
        load(tmp_path)


@pytest.mark.parametrize(
    ("url", "cleartext"),
    [
        ("http://loko.example.test", True),
        ("http://10.0.0.5:8000", True),
        ("http://127.0.0.1:8000", False),
        ("http://[::1]:8000", False),
        ("http://localhost:8000", False),
        ("https://loko.example.test", False),
    ],
)
def test_cleartext_is_http_to_another_host(url, cleartext):
    assert is_cleartext_remote(url) is cleartext


def test_written_toml_reads_back_without_a_key(tmp_path):
    text = config_toml("https://x.test", 'p"1', "en", [FileSet('a "b"/{language}/{fileName}.json', "json")])
    (tmp_path / "loko.toml").write_text(text, encoding="utf-8")
    config = load(tmp_path)
    assert (config.project, config.files[0].path) == ('p"1', 'a "b"/{language}/{fileName}.json')
    assert "api_key" not in text
