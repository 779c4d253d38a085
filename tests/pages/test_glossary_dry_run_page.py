"""The glossary's import form after a dry run: the page names the file it checked (a file
input cannot be filled again) and keeps the form's other choices."""

import io
import re

from tests.glossary.test_api import CSV


def dry_run(page_as, world, **fields):
    data = {"form": "import", "file": (io.BytesIO(CSV.encode()), "terms.csv"), "dry_run": "true", **fields}
    return page_as("org_owner").submit(
        f"/orgs/{world.organization_id}/glossary", data, content_type="multipart/form-data"
    )


def test_a_dry_run_names_the_file_it_checked_and_asks_to_choose_it_again(page_as, world):
    text = dry_run(page_as, world, mode="merge").get_data(as_text=True)
    assert '<p id="g-file-hint" class="hint">Checked: terms.csv. Choose it again to import it.</p>' in text
    assert 'aria-describedby="g-file-hint"' in text


def test_a_dry_run_keeps_the_mode_the_source_language_and_the_dry_run_choice(page_as, world):
    text = dry_run(page_as, world, mode="replace", source_language="en-GB").get_data(as_text=True)
    assert '<option value="replace" selected>' in text
    assert re.search(r'<input id="f-source_language" name="source_language" type="text" value="en-GB"', text)
    assert re.search(r'name="dry_run" value="true" checked>', text)


def test_the_import_form_names_no_file_before_one_is_sent(page_as, world):
    text = page_as("org_owner").get(f"/orgs/{world.organization_id}/glossary").get_data(as_text=True)
    assert "Choose it again" not in text
    assert '<option value="replace">' in text
