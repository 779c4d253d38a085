"""The OpenAPI document states the rules the API enforces, in schema keywords where JSON
Schema can say them and in the operation's description where it cannot (the generated
run in test_document_acceptance.py checks that they suffice)."""

import re

import jsonschema
import pytest

from loko.languages.codes import canonical_code

TRANSLATIONS = "/api/projects/{project_id}/translations"
LANGUAGE_CODE = {"$ref": "#/components/schemas/LanguageCode"}


@pytest.fixture
def document(client):
    return client.get("/api/openapi.json").json


@pytest.fixture
def schemas(document):
    return document["components"]["schemas"]


def test_document_is_openapi_3_1(document):
    assert document["openapi"] == "3.1.0"


@pytest.mark.parametrize(
    ("schema", "field"), [("TranslationCreate", "values"), ("TranslationPatch", "updates")]
)
def test_language_code_keys_are_stated_with_property_names(schemas, schema, field):
    names = schemas[schema]["properties"][field]["propertyNames"]
    assert names == {"type": "string", **LANGUAGE_CODE}


@pytest.mark.parametrize("code", ["de", "pt-BR", "zh-Hant-TW", "es-419", "sr-Latn", "de-CH-1996", "und"])
def test_the_language_code_component_admits_canonical_codes_of_the_registry(schemas, code):
    assert re.fullmatch(schemas["LanguageCode"]["pattern"], code)
    assert canonical_code(code) == code


@pytest.mark.parametrize(
    "code", ["zz", "xx-bogus", "en-ZZZ", "EN", "pt_BR", "pt-br", "de-1901-1901", "en-x-a"]
)
def test_the_language_code_component_refuses_unknown_and_other_spellings(schemas, code):
    assert not re.fullmatch(schemas["LanguageCode"]["pattern"], code)


def test_updates_need_at_least_one_language(schemas):
    updates = schemas["TranslationPatch"]["properties"]["updates"]
    assert updates["minProperties"] == 1
    assert "minLength" not in updates


def test_export_filters_are_repeated_parameters_of_codes_and_file_names(document):
    parameters = {p["name"]: p for p in document["paths"][TRANSLATIONS]["get"]["parameters"]}
    language, file_name = parameters["language"]["schema"], parameters["fileName"]["schema"]
    assert (language["type"], language["items"]["$ref"]) == ("array", LANGUAGE_CODE["$ref"])
    assert file_name["type"] == "array"
    assert not re.fullmatch(file_name["items"]["pattern"], "a,b")
    assert re.fullmatch(file_name["items"]["pattern"], "auth/login")


def test_bulk_delete_keys_are_unique(schemas):
    assert schemas["BulkDelete"]["properties"]["keys"]["uniqueItems"] is True


def test_bulk_operations_say_that_a_repeated_key_is_refused(document):
    assert "a repeated key is answered 400" in document["paths"][TRANSLATIONS]["put"]["description"]


def test_link_fields_are_required_together(schemas):
    required = schemas["ProjectUpdate"]["dependentRequired"]
    assert required["linked_project_id"] == ["linked_language_code", "linked_language_target_code"]


def test_link_fields_are_all_set_or_all_null(schemas):
    branches = [
        {branch["properties"][name]["type"] for name in branch["properties"]}
        for branch in schemas["ProjectUpdate"]["anyOf"]
    ]
    assert branches == [{"string"}, {"null"}]


def test_an_undo_names_an_operation_or_a_range_and_skips_or_includes_changes(schemas):
    undo = {"components": {"schemas": schemas}, **schemas["UndoRequest"]}
    for body in ({"operationId": "op"}, {"since": "2024-01-01T00:00:00Z"}, {"language": "de"}):
        jsonschema.validate(body, undo)
    for body in (
        {},
        {"dryRun": True},
        {"operationId": "op", "fileName": "common"},
        {"operationId": "op", "skipChanged": True, "includeChanged": True},
    ):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(body, undo)


def test_only_a_write_key_is_limited_to_languages(schemas):
    create = {"components": {"schemas": schemas}, **schemas["ApiKeyCreate"]}
    for body in ({"name": "ci", "languages": ["de"]}, {"name": "ci", "scope": "read", "languages": []}):
        jsonschema.validate(body, create)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"name": "ci", "scope": "read", "languages": ["de"]}, create)


def test_a_pre_translation_names_a_source(schemas):
    assert schemas["PretranslateSources"]["minProperties"] == 1


def test_link_rules_over_stored_data_are_described(document):
    description = document["paths"]["/api/projects/{project_id}"]["put"]["description"]
    assert "closes no cycle" in description


@pytest.mark.parametrize(("schema", "field"), [("SignupIn", "password"), ("LoginIn", "password")])
def test_request_strings_exclude_nul(schemas, schema, field):
    pattern = schemas[schema]["properties"][field]["pattern"]
    assert re.fullmatch(pattern, "correct horse")
    assert not re.fullmatch(pattern, "correct\x00horse")


def test_response_strings_get_no_request_pattern(schemas):
    assert "pattern" not in schemas["UserOut"]["properties"]["name"]


@pytest.mark.parametrize(
    ("schema", "field"), [("TranslationPatch", "key"), ("KeyValue", "key"), ("GlossaryTermCreate", "term")]
)
def test_keys_and_terms_are_stated_without_spaces_at_either_end(schemas, schema, field):
    pattern = schemas[schema]["properties"][field]["pattern"]
    assert re.fullmatch(pattern, "home.title")
    assert re.fullmatch(pattern, "sign in")
    for refused in (" sign in", "sign in ", "\u00a0sign in", "sign in\u3000", "sign\x01in"):
        assert not re.fullmatch(pattern, refused)
