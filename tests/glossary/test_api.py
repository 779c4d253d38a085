"""An organization's glossary over REST: terms listed, added, changed and deleted, their
limits, who may do what, CSV and TBX files in and out, hostile XML refused."""

import pytest

from tests.factories import CALLERS
from tests.glossary.conftest import add_term, glossary_url

# anonymous, unknown_key, revoked_key, other_project_key, read_key, write_key, viewer,
# editor, project_admin, org_admin, org_owner, outsider.
# The glossary: read by every member of the organization, by session only.
READERS = (401, 401, 401, 403, 403, 403, 200, 200, 200, 200, 200, 404)
# Changed by its owners and admins.
WRITERS = (401, 401, 401, 403, 403, 403, 403, 403, 403, 200, 200, 404)
# The terms found in a project's texts: whoever sees its translations, a read key too.
MATCHERS = (401, 401, 401, 403, 200, 200, 200, 200, 200, 200, 200, 404)
MISSING = "0190a0a0-0000-7000-8000-000000000000"
CSV = (
    "language,term,part_of_speech,note,case_sensitive,forbidden,translation_language,translation,"
    "translation_forbidden\r\n"
    "en,file,noun,A document,false,false,de,Datei,false\r\n"
    "en,file,noun,A document,false,false,de,Akte,true\r\n"
    "en,Log in,verb,,true,false,fr,Se connecter,false\r\n"
    "en,login,noun,,false,true,,,\r\n"
)
TBX = """<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Core" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
  <tbxHeader><fileDesc><sourceDesc><p>x</p></sourceDesc></fileDesc></tbxHeader>
  <text><body>
    <conceptEntry id="c1">
      <langSec xml:lang="en"><termSec><term>folder</term>
        <termNote type="partOfSpeech">noun</termNote></termSec></langSec>
      <langSec xml:lang="de">
        <termSec><term>Ordner</term></termSec>
        <termSec><term>Verzeichnis</term>
          <termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote></termSec>
      </langSec>
    </conceptEntry>
  </body></text>
</tbx>
"""


def _expected(statuses, caller, success):
    status = statuses[CALLERS.index(caller)]
    return success if status == 200 else status


def terms(as_caller, world, caller="viewer", **params) -> dict:
    response = as_caller(caller).get(glossary_url(world), query_string=params)
    assert response.status_code == 200, response.json
    return response.json


def imported(as_caller, world, format, content, status=200, **options):
    response = as_caller("org_owner").post(
        glossary_url(world, "/import"), json={"format": format, "content": content, **options}
    )
    assert response.status_code == status, response.json
    return response.json


@pytest.mark.parametrize("caller", CALLERS)
def test_the_glossary_answers_each_caller_as_the_policy_says(app, world, as_caller, caller):
    term = add_term(as_caller, world)
    one = glossary_url(world, f"/terms/{term['id']}")
    client = as_caller(caller)
    reads = (
        ("get", glossary_url(world), None, 200),
        ("get", one, None, 200),
        ("get", glossary_url(world, "/export"), None, 200),
    )
    writes = (
        ("post", glossary_url(world), {"language": "en", "term": "folder"}, 201),
        ("patch", one, {"note": "Changed"}, 200),
        ("post", glossary_url(world, "/import"), {"format": "csv", "content": CSV, "dryRun": True}, 200),
        ("patch", glossary_url(world, f"/terms/{MISSING}"), {"note": "x"}, 404),
        ("delete", one, None, 200),
    )
    for statuses, calls in ((READERS, reads), (WRITERS, writes)):
        for method, url, body, success in calls:
            response = getattr(client, method)(url, json=body) if body else getattr(client, method)(url)
            assert response.status_code == _expected(statuses, caller, success), (method, url, response.json)


@pytest.mark.parametrize("caller", CALLERS)
def test_the_matches_answer_each_caller_as_the_policy_says(app, world, as_caller, caller):
    add_term(as_caller, world)
    response = as_caller(caller).get(
        f"/api/projects/{world.project_id}/glossary/matches",
        query_string={"text": "Save the file", "language": "de"},
    )
    assert response.status_code == _expected(MATCHERS, caller, 200), response.json


def test_a_term_is_answered_with_its_translations(app, world, as_caller):
    term = add_term(
        as_caller,
        world,
        translations=(("de", "Datei", False), ("de", "Akte", True)),
        partOfSpeech="noun",
        note="A document",
    )
    assert {
        key: term[key] for key in ("language", "term", "partOfSpeech", "note", "caseSensitive", "forbidden")
    } == {
        "language": "en",
        "term": "file",
        "partOfSpeech": "noun",
        "note": "A document",
        "caseSensitive": False,
        "forbidden": False,
    }
    assert term["translations"] == [
        {"language": "de", "text": "Datei", "forbidden": False},
        {"language": "de", "text": "Akte", "forbidden": True},
    ]


def test_a_term_twice_in_a_language_conflicts(app, world, as_caller):
    add_term(as_caller, world)
    response = as_caller("org_owner").post(glossary_url(world), json={"language": "en", "term": "file"})
    assert response.status_code == 409
    assert "term" in response.json["error"]


def test_two_allowed_translations_in_a_language_are_refused(app, world, as_caller):
    response = as_caller("org_owner").post(
        glossary_url(world),
        json={
            "language": "en",
            "term": "file",
            "translations": [{"language": "de", "text": "Datei"}, {"language": "de", "text": "Akte"}],
        },
    )
    assert response.status_code == 400
    assert response.json["error"].startswith("translations.1")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"language": "en", "term": "x" * 201}, "term"),
        ({"language": "en", "term": ""}, "term"),
        ({"language": "en", "term": " file"}, "term"),
        ({"language": "xx-bogus", "term": "file"}, "language"),
        ({"language": "en", "term": "file", "note": "n" * 1001}, "note"),
        ({"language": "en", "term": "file", "partOfSpeech": "gerund"}, "partOfSpeech"),
        (
            {"language": "en", "term": "file", "translations": [{"language": "de", "text": "t" * 201}]},
            "translations",
        ),
        (
            {
                "language": "en",
                "term": "file",
                "translations": [{"language": "de", "text": f"t{i}", "forbidden": True} for i in range(51)],
            },
            "translations",
        ),
        ({"language": "en", "term": "file", "colour": "red"}, "colour"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(app, world, as_caller, body, field):
    response = as_caller("org_owner").post(glossary_url(world), json=body)
    assert response.status_code == 400, response.json
    assert field in response.json["error"] or field in str(response.json.get("details"))


def test_a_change_replaces_the_translations(app, world, as_caller):
    term = add_term(as_caller, world)
    response = as_caller("org_admin").patch(
        glossary_url(world, f"/terms/{term['id']}"),
        json={"caseSensitive": True, "translations": [{"language": "fr", "text": "fichier"}]},
    )
    assert response.status_code == 200, response.json
    assert response.json["term"]["caseSensitive"] is True
    assert response.json["term"]["translations"] == [
        {"language": "fr", "text": "fichier", "forbidden": False}
    ]


def test_an_empty_change_is_refused(app, world, as_caller):
    term = add_term(as_caller, world)
    response = as_caller("org_owner").patch(glossary_url(world, f"/terms/{term['id']}"), json={})
    assert response.status_code == 400


def test_a_deleted_term_is_gone(app, world, as_caller):
    term = add_term(as_caller, world)
    assert as_caller("org_owner").delete(glossary_url(world, f"/terms/{term['id']}")).status_code == 200
    assert as_caller("org_owner").get(glossary_url(world, f"/terms/{term['id']}")).status_code == 404


def test_the_list_pages_and_filters(app, world, as_caller):
    for word in ("apple", "banana", "cherry"):
        add_term(as_caller, world, word, (("de", word.upper(), False),))
    page = terms(as_caller, world, limit=2)
    assert [t["term"] for t in page["terms"]] == ["apple", "banana"]
    assert page["total"] == 3
    assert [t["term"] for t in terms(as_caller, world, limit=2, offset=2)["terms"]] == ["cherry"]
    assert [t["term"] for t in terms(as_caller, world, q="ANA")["terms"]] == ["banana"]
    assert [t["term"] for t in terms(as_caller, world, q="cherr")["terms"]] == ["cherry"]


def test_a_filter_with_like_wildcards_matches_them_literally(app, world, as_caller):
    add_term(as_caller, world, "100% free", ())
    add_term(as_caller, world, "1000 free", ())
    assert [t["term"] for t in terms(as_caller, world, q="0%")["terms"]] == ["100% free"]


def test_another_organizations_term_is_not_found(app, world, as_caller):
    term = add_term(as_caller, world)
    response = as_caller("outsider").get(glossary_url(world, f"/terms/{term['id']}"))
    assert response.status_code == 404


def test_csv_round_trip_keeps_every_term(app, world, as_caller):
    assert imported(as_caller, world, "csv", CSV) == {
        "dryRun": False,
        "created": 3,
        "updated": 0,
        "unchanged": 0,
        "deleted": 0,
    }
    exported = as_caller("viewer").get(glossary_url(world, "/export"), query_string={"format": "csv"})
    assert exported.status_code == 200
    assert exported.mimetype == "text/csv"
    before = terms(as_caller, world)["terms"]
    again = imported(as_caller, world, "csv", exported.data.decode(), mode="replace")
    assert again == {"dryRun": False, "created": 0, "updated": 0, "unchanged": 3, "deleted": 0}
    after = terms(as_caller, world)["terms"]
    assert [(t["term"], t["translations"], t["caseSensitive"], t["forbidden"]) for t in after] == [
        (t["term"], t["translations"], t["caseSensitive"], t["forbidden"]) for t in before
    ]


def test_tbx_round_trip_keeps_every_term(app, world, as_caller):
    imported(as_caller, world, "csv", CSV)
    before = terms(as_caller, world)["terms"]
    exported = as_caller("viewer").get(glossary_url(world, "/export"), query_string={"format": "tbx"})
    assert exported.status_code == 200
    assert b"<termEntry" in exported.data and b"forbidden-admn-sts" in exported.data
    again = imported(as_caller, world, "tbx", exported.data.decode(), mode="replace")
    assert again["unchanged"] == 3 and again["created"] == again["deleted"] == again["updated"] == 0
    after = terms(as_caller, world)["terms"]
    assert [(t["term"], t["partOfSpeech"], t["translations"], t["note"]) for t in after] == [
        (t["term"], t["partOfSpeech"], t["translations"], t["note"]) for t in before
    ]


def test_tbx_v3_is_read_with_deprecated_terms_forbidden(app, world, as_caller):
    imported(as_caller, world, "tbx", TBX)
    [term] = terms(as_caller, world)["terms"]
    assert (term["term"], term["partOfSpeech"]) == ("folder", "noun")
    assert term["translations"] == [
        {"language": "de", "text": "Ordner", "forbidden": False},
        {"language": "de", "text": "Verzeichnis", "forbidden": True},
    ]


def test_a_dry_run_counts_and_writes_nothing(app, world, as_caller):
    assert imported(as_caller, world, "csv", CSV, dryRun=True)["created"] == 3
    assert terms(as_caller, world)["total"] == 0


def test_replace_deletes_the_terms_the_file_lacks(app, world, as_caller):
    add_term(as_caller, world, "obsolete", ())
    result = imported(as_caller, world, "csv", CSV, mode="replace")
    assert result["deleted"] == 1
    assert "obsolete" not in [t["term"] for t in terms(as_caller, world)["terms"]]


def test_a_bad_line_refuses_the_whole_import(app, world, as_caller):
    bad = CSV + "en," + "x" * 201 + ",,,,,,,\r\n"
    response = imported(as_caller, world, "csv", bad, status=400)
    assert "line 6" in response["error"]
    assert terms(as_caller, world)["total"] == 0


@pytest.mark.parametrize(
    "document",
    [
        '<?xml version="1.0"?><!DOCTYPE tbx [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
        '<tbx><text><body><conceptEntry><langSec xml:lang="en"><termSec><term>&b;</term></termSec>'
        "</langSec></conceptEntry></body></text></tbx>",
        '<?xml version="1.0"?><!DOCTYPE tbx SYSTEM "file:///etc/passwd"><tbx/>',
        '<?xml version="1.0"?><tbx><text><body>' + "<x>" * 100 + "</x>" * 100 + "</body></text></tbx>",
        "<tbx><text><body><conceptEntry>",
        "<html/>",
    ],
)
def test_hostile_or_broken_xml_is_refused(app, world, as_caller, document):
    response = imported(as_caller, world, "tbx", document, status=400)
    assert response["error"].startswith("content:")
    assert terms(as_caller, world)["total"] == 0


def test_matches_name_the_terms_in_each_text_with_their_translation(app, world, as_caller, bilingual):
    add_term(as_caller, world, translations=(("de", "Datei", False), ("de", "Akte", True)), note="A document")
    add_term(as_caller, world, "profile", (("de", "Profil", False),))
    response = as_caller("read_key").get(
        f"/api/projects/{world.project_id}/glossary/matches",
        query_string=[("text", "Save the File"), ("text", "Nothing here"), ("language", "de")],
    )
    assert response.status_code == 200, response.json
    first, second = response.json["matches"]
    assert [(m["term"], m["translation"], m["forbiddenTranslations"]) for m in first["terms"]] == [
        ("file", "Datei", ["Akte"])
    ]
    assert second == {"text": "Nothing here", "terms": []}


def test_deleting_the_organization_deletes_its_glossary(app, world, as_caller):
    from sqlalchemy import func, select

    from loko.extensions import db
    from loko.glossary.models import GlossaryTerm, GlossaryTranslation

    add_term(as_caller, world)
    response = as_caller("org_owner").delete(f"/api/organizations/{world.organization_id}")
    assert response.status_code == 200, response.json
    with app.app_context():
        for model in (GlossaryTerm, GlossaryTranslation):
            assert db.session.scalar(select(func.count()).select_from(model)) == 0


def test_an_import_of_the_largest_glossary_is_written_whole(app, world, as_caller):
    rows = "".join(f"en,term {i},,,false,false,de,Begriff {i},false\r\n" for i in range(10_000))
    assert imported(as_caller, world, "csv", CSV.split("\n")[0] + "\n" + rows)["created"] == 10_000
    assert terms(as_caller, world, q="term 9999")["terms"][0]["translations"][0]["text"] == "Begriff 9999"
    response = as_caller("org_owner").post(glossary_url(world), json={"language": "en", "term": "one more"})
    assert response.status_code == 400
    assert "10,000" in response.json["error"]
    exported = as_caller("viewer").get(glossary_url(world, "/export"), query_string={"format": "tbx"})
    assert exported.data.count(b"<termEntry") == 10_000
