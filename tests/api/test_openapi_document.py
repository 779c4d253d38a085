"""The OpenAPI document states the rules the API enforces, in schema keywords where JSON
Schema can say them and in the operation's description where it cannot (the generated
run in test_document_acceptance.py checks that they suffice)."""

import re

import pytest

from loko.fields import LANGUAGE_CODE

TRANSLATIONS = "/api/projects/{project_id}/translations"


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
    assert names == {"type": "string", "pattern": LANGUAGE_CODE.pattern, "maxLength": 35}


def test_updates_need_at_least_one_language(schemas):
    updates = schemas["TranslationPatch"]["properties"]["updates"]
    assert updates["minProperties"] == 1
    assert "minLength" not in updates


def test_export_filters_are_repeated_parameters_of_codes_and_file_names(document):
    parameters = {p["name"]: p for p in document["paths"][TRANSLATIONS]["get"]["parameters"]}
    language, file_name = parameters["language"]["schema"], parameters["fileName"]["schema"]
    assert (language["type"], language["items"]["pattern"]) == ("array", LANGUAGE_CODE.pattern)
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
