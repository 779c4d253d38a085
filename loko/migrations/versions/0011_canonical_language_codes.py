"""language codes in their canonical BCP 47 form

Revision ID: 0011_canonical_language_codes
Revises: 0010_invitations

Language codes were stored as given (`EN`, `pt_br`); they are now stored in their canonical
form (`en`, `pt-BR`). This rewrites every code of every project: its languages, values, file
records, history entries and project links. Two codes of one project that become one
(`EN` and `en`) are merged when their values do not disagree (the same value, or a value on
one side only); when they do, the upgrade is refused, naming the project and the codes, and
nothing is changed. A code that is not a known language code is left as it is and named in
the log.
"""

import logging
from collections import defaultdict

import sqlalchemy as sa
from alembic import op

from loko.languages.codes import canonical_code

revision = '0011_canonical_language_codes'
down_revision = '0010_invitations'
branch_labels = None
depends_on = None

log = logging.getLogger("alembic.runtime.migration")
EXAMPLES = 3


def _canonical(code: str) -> str | None:
    try:
        return canonical_code(code)
    except ValueError:
        return None


def _groups(connection) -> dict[str, dict[str, list[str]]]:
    """``{project id: {canonical code: [stored codes]}}`` of the codes to rewrite; unknown
    codes are logged and left out."""
    groups: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    rows = connection.execute(sa.text("SELECT project_id, code FROM project_languages ORDER BY project_id, code"))
    for project_id, code in rows:
        canonical = _canonical(code)
        if canonical is None:
            log.warning("Project %s: the language code %r is not a known language code; left as it is.", project_id, code)
        else:
            groups[project_id][canonical].append(code)
    return {
        project_id: {canonical: codes for canonical, codes in by_code.items() if codes != [canonical]}
        for project_id, by_code in groups.items()
    }


def _in(name: str) -> sa.sql.elements.BindParameter:
    return sa.bindparam(name, expanding=True)


def _disagreements(connection, project_id: str, codes: list[str]) -> tuple[list[tuple], int]:
    """``(file name, key, [(code, value)])`` of translations with differing values among ``codes``."""
    differing = connection.execute(
        sa.text(
            "SELECT translation_id FROM translation_values WHERE project_id = :project AND language_code IN :codes "
            "GROUP BY translation_id HAVING COUNT(DISTINCT value) > 1 ORDER BY translation_id"
        ).bindparams(_in("codes")),
        {"project": project_id, "codes": codes},
    ).scalars().all()
    found = []
    for translation_id in differing[:EXAMPLES]:
        file_name, key = connection.execute(
            sa.text("SELECT file_name, key FROM translations WHERE id = :id"), {"id": translation_id}
        ).one()
        values = connection.execute(
            sa.text(
                "SELECT language_code, value FROM translation_values WHERE translation_id = :id "
                "AND language_code IN :codes ORDER BY language_code"
            ).bindparams(_in("codes")),
            {"id": translation_id, "codes": codes},
        ).all()
        found.append((file_name, key, [tuple(row) for row in values]))
    return found, len(differing)


def _refusal(connection, project_id: str, canonical: str, codes: list[str], examples, count: int) -> str:
    name = connection.execute(sa.text("SELECT name FROM projects WHERE id = :id"), {"id": project_id}).scalar()
    spelled = " and ".join(repr(code) for code in codes)
    shown = "; ".join(
        f"{file_name} / {key}: " + ", ".join(f"{code} {value!r}" for code, value in values)
        for file_name, key, values in examples
    )
    return (
        f"Project {name!r} ({project_id}) has the languages {spelled}, which all become {canonical!r} "
        f"now that language codes are stored in their canonical form, and their values "
        f"differ for {count} key(s) (e.g. {shown}). Nothing was changed. With the Loko version you are "
        f"upgrading from, rename all but one of them to another code (its Languages page, or PATCH "
        f"/api/projects/{project_id}/languages with currentCode and code) or delete them, then upgrade again."
    )


def _move(connection, project_id: str, old: str, new: str) -> None:
    """Move one code's rows onto another code the project already has; a value or file record
    the new code already has stays (the values were checked to agree)."""
    params = {"project": project_id, "old": old, "new": new}
    connection.execute(
        sa.text(
            "DELETE FROM translation_values WHERE project_id = :project AND language_code = :old AND translation_id IN "
            "(SELECT translation_id FROM translation_values WHERE project_id = :project AND language_code = :new)"
        ),
        params,
    )
    connection.execute(
        sa.text("UPDATE translation_values SET language_code = :new WHERE project_id = :project AND language_code = :old"),
        params,
    )
    connection.execute(
        sa.text(
            "DELETE FROM file_records WHERE project_id = :project AND language_code = :old AND file_name IN "
            "(SELECT file_name FROM file_records WHERE project_id = :project AND language_code = :new)"
        ),
        params,
    )
    connection.execute(
        sa.text("UPDATE file_records SET language_code = :new WHERE project_id = :project AND language_code = :old"),
        params,
    )
    connection.execute(
        sa.text(
            "UPDATE projects SET linked_language_target_code = :new "
            "WHERE id = :project AND linked_language_target_code = :old"
        ),
        params,
    )
    connection.execute(
        sa.text(
            "UPDATE projects SET linked_language_code = :new "
            "WHERE linked_project_id = :project AND linked_language_code = :old"
        ),
        params,
    )
    connection.execute(
        sa.text("DELETE FROM project_languages WHERE project_id = :project AND code = :old"), params
    )


def _rewrite_project(connection, project_id: str, canonical: str, codes: list[str]) -> None:
    if canonical not in codes:
        # The canonical code takes the name and emoji of the first stored spelling.
        connection.execute(
            sa.text(
                "INSERT INTO project_languages (project_id, code, name, emoji) "
                "SELECT project_id, :new, name, emoji FROM project_languages WHERE project_id = :project AND code = :old"
            ),
            {"project": project_id, "new": canonical, "old": codes[0]},
        )
    for code in codes:
        if code != canonical:
            _move(connection, project_id, code, canonical)
    log.info("Project %s: language codes %s are now %r.", project_id, ", ".join(map(repr, codes)), canonical)


def _rewrite_column(connection, table: str, column: str) -> None:
    """Canonicalize a column that only names codes (no key of its own holds them)."""
    stored = connection.execute(
        sa.text(f"SELECT DISTINCT {column} FROM {table} WHERE {column} IS NOT NULL")
    ).scalars().all()
    for code in stored:
        canonical = _canonical(code)
        if canonical is not None and canonical != code:
            connection.execute(
                sa.text(f"UPDATE {table} SET {column} = :new WHERE {column} = :old"), {"new": canonical, "old": code}
            )


def upgrade():
    connection = op.get_bind()
    groups = _groups(connection)
    refusals = []
    for project_id, by_code in groups.items():
        for canonical, codes in by_code.items():
            if len(codes) > 1:
                examples, count = _disagreements(connection, project_id, codes)
                if count:
                    refusals.append(_refusal(connection, project_id, canonical, codes, examples, count))
    if refusals:
        raise RuntimeError(
            "Cannot store language codes in their canonical form:\n" + "\n".join(refusals)
        )
    for project_id, by_code in groups.items():
        for canonical, codes in by_code.items():
            _rewrite_project(connection, project_id, canonical, codes)
    # History keeps the codes of languages deleted since; links may name a code of a
    # language that is gone too. Each is rewritten on its own.
    _rewrite_column(connection, "translation_history", "language")
    _rewrite_column(connection, "projects", "linked_language_code")
    _rewrite_column(connection, "projects", "linked_language_target_code")


def downgrade():
    # Canonical codes are valid codes for the previous version, which stores codes as given.
    pass
