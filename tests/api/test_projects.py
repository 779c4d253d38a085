"""Projects: creation, reading, settings with the linked-project rules, deletion and
project roles (service spec "Project", decisions sections 3, 4 and 9)."""

import uuid

import pytest

from tests.factories import add_languages, project_in, user_id

PROJECT_FIELDS = {
    "id",
    "name",
    "desc",
    "emoji",
    "organization_id",
    "linked_project_id",
    "linked_language_code",
    "linked_language_target_code",
    "source_language",
    "created_at",
    "canEdit",
    "canDelete",
    "canViewTranslations",
    "canEditTranslations",
    "canReviewTranslations",
    "canManageKeys",
    "editableLanguages",
    "checks",
    "memory_shared",
    "public",
}


@pytest.fixture
def owner(as_caller):
    return as_caller("org_owner")


def create(owner, world, **fields):
    return owner.post(
        "/api/projects", json={"name": "Mobile app", "organization_id": world.organization_id, **fields}
    )


def update(caller, project_id, **fields):
    return caller.put(f"/api/projects/{project_id}", json=fields)


def link(caller, project_id, linked_project_id, source="en", target="en-GB"):
    return update(
        caller,
        project_id,
        linked_project_id=linked_project_id,
        linked_language_code=source,
        linked_language_target_code=target,
    )


@pytest.fixture
def linkable(app, world):
    """Projects in the world's organization: ``main`` speaks en and de, ``brand`` and
    ``third`` speak en and en-GB; returns their ids by name."""
    with app.app_context():
        add_languages(world.project_id, "en", "de")
        return {
            "main": world.project_id,
            "brand": project_in(world.organization_id, ("en", "en-GB"), name="Brand"),
            "third": project_in(world.organization_id, ("en", "en-GB"), name="Third"),
        }


# --- create ------------------------------------------------------------------------------


def test_create_project_answers_201_with_the_project(owner, world):
    response = create(owner, world, desc="The iOS and Android app", emoji="📱")
    assert response.status_code == 201
    project = response.json["project"]
    assert set(project) == PROJECT_FIELDS
    assert project["name"] == "Mobile app"
    assert project["desc"] == "The iOS and Android app"
    assert project["emoji"] == "📱"
    assert project["organization_id"] == world.organization_id
    assert project["linked_project_id"] is None
    uuid.UUID(project["id"])


def test_create_project_defaults_desc_and_emoji_to_empty(owner, world):
    project = create(owner, world).json["project"]
    assert (project["desc"], project["emoji"]) == ("", "")


def test_created_project_describes_its_creator_as_full_owner(owner, world):
    project = create(owner, world).json["project"]
    assert project["canEdit"] and project["canDelete"]
    assert project["canViewTranslations"] and project["canEditTranslations"]


def test_create_project_accepts_a_name_of_32_characters(owner, world):
    assert create(owner, world, name="n" * 32).status_code == 201


def test_create_project_rejects_a_name_of_33_characters(owner, world):
    response = create(owner, world, name="n" * 33)
    assert response.status_code == 400
    assert "name" in response.json["error"]
    assert "name" in response.json["details"]


def test_create_project_rejects_an_empty_name(owner, world):
    response = create(owner, world, name="")
    assert response.status_code == 400
    assert "name" in response.json["error"]


def test_create_project_accepts_a_desc_of_1000_characters(owner, world):
    assert create(owner, world, desc="d" * 1000).status_code == 201


def test_create_project_rejects_a_desc_of_1001_characters(owner, world):
    response = create(owner, world, desc="d" * 1001)
    assert response.status_code == 400
    assert "desc" in response.json["error"]


def test_create_project_requires_an_organization(owner):
    response = owner.post("/api/projects", json={"name": "Orphan"})
    assert response.status_code == 400
    assert "organization_id" in response.json["error"]


def test_create_project_in_an_unknown_organization_is_not_found(owner):
    response = owner.post("/api/projects", json={"name": "Lost", "organization_id": str(uuid.uuid4())})
    assert response.status_code == 404


def test_create_project_rejects_unknown_fields(owner, world):
    response = create(owner, world, colour="blue")
    assert response.status_code == 400
    assert "colour" in response.json["error"]


def test_create_project_writes_nothing_when_invalid(owner, world):
    create(owner, world, name="n" * 33)
    names = [p["name"] for p in owner.get("/api/projects").json["projects"]]
    assert names == ["Web app"]


# --- read --------------------------------------------------------------------------------


def test_get_project_answers_with_the_project(owner, world):
    response = owner.get(f"/api/projects/{world.project_id}")
    assert response.status_code == 200
    project = response.json["project"]
    assert set(project) == PROJECT_FIELDS
    assert (project["id"], project["name"]) == (world.project_id, "Web app")


def test_list_projects_shows_the_projects_of_the_users_organizations(owner, world):
    create(owner, world, name="Alpha")
    names = [p["name"] for p in owner.get("/api/projects").json["projects"]]
    assert names == ["Alpha", "Web app"]


def test_list_projects_hides_other_organizations(as_caller, world):
    ids = [p["id"] for p in as_caller("outsider").get("/api/projects").json["projects"]]
    assert ids == [world.other_project_id]


def test_list_projects_hides_projects_a_member_has_no_role_in(app, as_caller, world):
    with app.app_context():
        project_in(world.organization_id, name="Secret")
    names = [p["name"] for p in as_caller("viewer").get("/api/projects").json["projects"]]
    assert names == ["Web app"]


def test_list_projects_for_an_api_key_shows_only_its_project(as_caller, world):
    projects = as_caller("read_key").get("/api/projects").json["projects"]
    assert [p["id"] for p in projects] == [world.project_id]


def test_member_without_a_project_role_may_not_view_the_project(app, as_caller, world):
    with app.app_context():
        secret = project_in(world.organization_id, name="Secret")
    assert as_caller("viewer").get(f"/api/projects/{secret}").status_code == 403


def test_project_id_that_is_not_a_uuid_is_not_found(owner):
    response = owner.get("/api/projects/web-app")
    assert response.status_code == 404
    assert isinstance(response.json["error"], str)


# --- update ------------------------------------------------------------------------------


def test_update_project_changes_name_desc_and_emoji(owner, world):
    response = update(owner, world.project_id, name="Website", desc="Marketing site", emoji="🌐")
    assert response.status_code == 200
    project = owner.get(f"/api/projects/{world.project_id}").json["project"]
    assert (project["name"], project["desc"], project["emoji"]) == ("Website", "Marketing site", "🌐")
    assert response.json["project"] == project


def test_update_project_leaves_fields_not_given_unchanged(owner, world):
    update(owner, world.project_id, desc="First")
    update(owner, world.project_id, emoji="🚀")
    project = owner.get(f"/api/projects/{world.project_id}").json["project"]
    assert (project["name"], project["desc"], project["emoji"]) == ("Web app", "First", "🚀")


def test_update_project_with_an_empty_body_changes_nothing(owner, world):
    before = owner.get(f"/api/projects/{world.project_id}").json["project"]
    response = owner.put(f"/api/projects/{world.project_id}", json={})
    assert response.status_code == 200
    assert response.json["project"] == before


def test_update_project_accepts_a_name_of_32_characters(owner, world):
    assert update(owner, world.project_id, name="n" * 32).status_code == 200


def test_update_project_rejects_a_name_of_33_characters(owner, world):
    response = update(owner, world.project_id, name="n" * 33)
    assert response.status_code == 400
    assert "name" in response.json["error"]
    assert owner.get(f"/api/projects/{world.project_id}").json["project"]["name"] == "Web app"


def test_update_project_accepts_a_desc_of_1000_characters(owner, world):
    assert update(owner, world.project_id, desc="d" * 1000).status_code == 200


def test_update_project_rejects_a_desc_of_1001_characters(owner, world):
    response = update(owner, world.project_id, desc="d" * 1001)
    assert response.status_code == 400
    assert "desc" in response.json["error"]


def test_update_project_ignores_read_only_fields(as_caller, owner, world):
    fetched = as_caller("project_admin").get(f"/api/projects/{world.project_id}").json["project"]
    sent_back = {
        **fetched,
        "name": "Renamed",
        "id": str(uuid.uuid4()),
        "organization_id": str(uuid.uuid4()),
        "created_at": "2000-01-01T00:00:00+00:00",
        "canDelete": True,
        "canEdit": False,
    }
    response = as_caller("project_admin").put(f"/api/projects/{world.project_id}", json=sent_back)
    assert response.status_code == 200
    assert response.json["project"] == {**fetched, "name": "Renamed"}


def test_update_project_rejects_unknown_fields(owner, world):
    response = update(owner, world.project_id, name="Renamed", colour="blue")
    assert response.status_code == 400
    assert "colour" in response.json["error"]
    assert owner.get(f"/api/projects/{world.project_id}").json["project"]["name"] == "Web app"


# --- linked projects ---------------------------------------------------------------------


def test_link_project_sets_all_three_link_fields(owner, linkable):
    response = link(owner, linkable["brand"], linkable["main"], "en", "en-GB")
    assert response.status_code == 200
    project = owner.get(f"/api/projects/{linkable['brand']}").json["project"]
    assert project["linked_project_id"] == linkable["main"]
    assert project["linked_language_code"] == "en"
    assert project["linked_language_target_code"] == "en-GB"


def test_link_to_a_project_of_another_organization_is_rejected(owner, world, linkable):
    response = link(owner, linkable["brand"], world.other_project_id)
    assert response.status_code == 400
    assert "linked_project_id" in response.json["error"]


def test_link_to_a_missing_project_is_rejected(owner, linkable):
    response = link(owner, linkable["brand"], str(uuid.uuid4()))
    assert response.status_code == 400
    assert "linked_project_id" in response.json["error"]


def test_link_to_itself_is_rejected(owner, linkable):
    response = link(owner, linkable["brand"], linkable["brand"], "en", "en-GB")
    assert response.status_code == 400
    assert "itself" in response.json["error"]


def test_link_creating_a_two_project_cycle_is_rejected(owner, linkable):
    assert link(owner, linkable["brand"], linkable["third"], "en", "en-GB").status_code == 200
    response = link(owner, linkable["third"], linkable["brand"], "en", "en-GB")
    assert response.status_code == 400
    assert "cycle" in response.json["error"]


def test_link_creating_a_three_project_cycle_is_rejected(owner, linkable):
    assert link(owner, linkable["brand"], linkable["main"], "en", "en-GB").status_code == 200
    assert link(owner, linkable["third"], linkable["brand"], "en", "en-GB").status_code == 200
    response = link(owner, linkable["main"], linkable["third"], "en", "en")
    assert response.status_code == 400
    assert "cycle" in response.json["error"]


def test_link_chain_without_a_cycle_is_allowed(owner, linkable):
    assert link(owner, linkable["brand"], linkable["main"], "en", "en-GB").status_code == 200
    assert link(owner, linkable["third"], linkable["brand"], "en-GB", "en-GB").status_code == 200


def test_relinking_to_the_same_project_is_allowed(owner, linkable):
    link(owner, linkable["brand"], linkable["main"], "en", "en-GB")
    assert link(owner, linkable["brand"], linkable["main"], "de", "en-GB").status_code == 200


def test_link_fields_must_be_set_together(owner, linkable):
    response = update(owner, linkable["brand"], linked_project_id=linkable["main"])
    assert response.status_code == 400
    assert "together" in response.json["error"]


def test_link_fields_must_all_be_null_to_unlink(owner, linkable):
    link(owner, linkable["brand"], linkable["main"])
    response = update(
        owner,
        linkable["brand"],
        linked_project_id=None,
        linked_language_code="en",
        linked_language_target_code="en-GB",
    )
    assert response.status_code == 400
    assert "together" in response.json["error"]


def test_null_link_fields_unlink_the_project(owner, linkable):
    link(owner, linkable["brand"], linkable["main"])
    response = update(
        owner,
        linkable["brand"],
        linked_project_id=None,
        linked_language_code=None,
        linked_language_target_code=None,
    )
    assert response.status_code == 200
    project = owner.get(f"/api/projects/{linkable['brand']}").json["project"]
    assert project["linked_project_id"] is None
    assert project["linked_language_code"] is None
    assert project["linked_language_target_code"] is None


def test_linked_language_must_be_a_language_of_the_linked_project(owner, linkable):
    response = link(owner, linkable["brand"], linkable["main"], "fr", "en-GB")
    assert response.status_code == 400
    assert "linked_language_code" in response.json["error"]


def test_linked_language_target_must_be_a_language_of_this_project(owner, linkable):
    response = link(owner, linkable["brand"], linkable["main"], "en", "de")
    assert response.status_code == 400
    assert "linked_language_target_code" in response.json["error"]


def test_linked_language_code_must_look_like_a_language_code(owner, linkable):
    response = link(owner, linkable["brand"], linkable["main"], "english!", "en-GB")
    assert response.status_code == 400
    assert "linked_language_code" in response.json["error"]


def test_rejected_link_leaves_the_project_unchanged(owner, linkable):
    update(
        owner,
        linkable["brand"],
        name="Changed",
        linked_project_id=linkable["brand"],
        linked_language_code="en",
        linked_language_target_code="en-GB",
    )
    project = owner.get(f"/api/projects/{linkable['brand']}").json["project"]
    assert project["name"] == "Brand"
    assert project["linked_project_id"] is None


def test_project_sent_back_unchanged_keeps_its_link(owner, linkable):
    link(owner, linkable["brand"], linkable["main"])
    fetched = owner.get(f"/api/projects/{linkable['brand']}").json["project"]
    response = owner.put(f"/api/projects/{linkable['brand']}", json=fetched)
    assert response.status_code == 200
    assert response.json["project"] == fetched


# --- delete ------------------------------------------------------------------------------


def test_delete_project_removes_it(owner, world):
    response = owner.delete(f"/api/projects/{world.project_id}")
    assert response.status_code == 200
    assert response.json == {"success": True}
    assert owner.get(f"/api/projects/{world.project_id}").status_code == 404
    assert owner.get("/api/projects").json["projects"] == []


def test_delete_project_revokes_its_api_keys(owner, as_caller, world):
    owner.delete(f"/api/projects/{world.project_id}")
    assert as_caller("write_key").get("/api/projects").status_code == 401


def test_delete_project_unlinks_projects_that_link_to_it(owner, linkable):
    link(owner, linkable["brand"], linkable["main"])
    owner.delete(f"/api/projects/{linkable['main']}")
    project = owner.get(f"/api/projects/{linkable['brand']}").json["project"]
    assert project["linked_project_id"] is None
    assert project["linked_language_code"] is None
    assert project["linked_language_target_code"] is None


def test_delete_project_leaves_other_projects(owner, world, linkable):
    owner.delete(f"/api/projects/{linkable['third']}")
    names = sorted(p["name"] for p in owner.get("/api/projects").json["projects"])
    assert names == ["Brand", "Web app"]


def test_deleted_project_cannot_be_deleted_again(owner, world):
    owner.delete(f"/api/projects/{world.project_id}")
    assert owner.delete(f"/api/projects/{world.project_id}").status_code == 404


# --- project roles -----------------------------------------------------------------------


def member_path(world, user="viewer"):
    return f"/api/projects/{world.project_id}/members/{user_id(world.users[user])}"


@pytest.mark.parametrize("role", ["admin", "editor", "viewer"])
def test_set_project_role_answers_with_the_member(owner, world, role):
    response = owner.put(member_path(world), json={"role": role})
    assert response.status_code == 200
    assert response.json == {
        "member": {
            "user": {"id": user_id(world.users["viewer"]), "email": "viewer@example.test", "name": "viewer"},
            "role": role,
            "languages": None,
        }
    }


@pytest.mark.parametrize(
    ("role", "can_edit_translations", "can_edit"),
    [("viewer", False, False), ("editor", True, False), ("admin", True, True)],
)
def test_project_role_sets_the_members_permissions(
    as_caller, owner, world, role, can_edit_translations, can_edit
):
    owner.put(member_path(world), json={"role": role})
    project = as_caller("viewer").get(f"/api/projects/{world.project_id}").json["project"]
    assert project["canEditTranslations"] is can_edit_translations
    assert project["canEdit"] is can_edit
    assert project["canDelete"] is False


def test_null_project_role_removes_the_member_from_the_project(as_caller, owner, world):
    response = owner.put(member_path(world), json={"role": None})
    assert response.status_code == 200
    assert response.json["member"]["role"] is None
    assert as_caller("viewer").get(f"/api/projects/{world.project_id}").status_code == 403


def test_null_project_role_for_a_member_without_one_is_accepted(owner, world):
    owner.put(member_path(world), json={"role": None})
    assert owner.put(member_path(world), json={"role": None}).status_code == 200


def test_project_role_gives_a_plain_org_member_access(app, as_caller, owner, world):
    with app.app_context():
        secret = project_in(world.organization_id, name="Secret")
    path = f"/api/projects/{secret}/members/{user_id(world.users['viewer'])}"
    owner.put(path, json={"role": "editor"})
    assert as_caller("viewer").get(f"/api/projects/{secret}").json["project"]["canEditTranslations"] is True


def test_project_role_for_a_user_outside_the_organization_is_not_found(owner, world):
    response = owner.put(member_path(world, "outsider"), json={"role": "viewer"})
    assert response.status_code == 404


def test_project_role_for_an_unknown_user_is_not_found(owner, world):
    response = owner.put(f"/api/projects/{world.project_id}/members/{uuid.uuid4()}", json={"role": "viewer"})
    assert response.status_code == 404


def test_project_role_must_be_a_known_role(owner, world):
    response = owner.put(member_path(world), json={"role": "owner"})
    assert response.status_code == 400
    assert "role" in response.json["error"]


def test_project_role_is_required(owner, world):
    response = owner.put(member_path(world), json={})
    assert response.status_code == 400
    assert "role" in response.json["error"]
