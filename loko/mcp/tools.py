"""The MCP tools: name, description, argument schema, result schema and a handler that
calls one service with the API key's actor, so permissions, validation, limits and
history are those of the REST API; the values a tool writes are an agent's, so they wait
for a review (``translations.writing.agent_writes``). A service's refusal is a tool error the model can
read (``isError``), not a protocol error."""

from collections.abc import Callable
from dataclasses import dataclass

from flask import current_app
from marshmallow import ValidationError
from mcp_types import CallToolResult, TextContent, Tool, ToolAnnotations

from loko.auth.actors import ApiKeyActor
from loko.auth.schemas import SuccessOut
from loko.comments import service as comments
from loko.comments.schemas import CommentEnvelope, CommentList
from loko.errors import LokoError, describe_validation
from loko.exports import service as exports
from loko.glossary import service as glossary
from loko.glossary.schemas import GlossarySearchArguments, GlossarySearchOut
from loko.http import nul_field
from loko.imports.service import ImportOptions, import_files
from loko.languages.service import list_languages
from loko.machine import pretranslate
from loko.machine import service as machine
from loko.machine.schemas import PretranslateIn, PretranslateStarted, SuggestionsOut, SuggestionsQuery
from loko.mcp import schemas
from loko.memory import service as memory
from loko.memory.schemas import MemoryAnswer, MemoryQuery
from loko.proposals import service as proposals
from loko.proposals.schemas import DecisionOut, ProposalEnvelope, ProposalOut, QueuePage, QueueQuery
from loko.quality import queue, review
from loko.quality.schemas import ChecksPage, ReviewQueuePage, ReviewRequest, ReviewResult
from loko.releases import service as releases
from loko.releases.schemas import ReleaseComparison, ReleaseList
from loko.replace import service as replacing
from loko.replace.schemas import ReplaceRequest, ReplaceResult
from loko.screenshots import service as screenshots
from loko.tags import service as tagging
from loko.tags.filters import TagFilter
from loko.tags.schemas import BulkTagRequest, BulkTagResult, TagList
from loko.tasks import service as tasks
from loko.tasks.models import CLOSED, OPEN
from loko.tasks.schemas import TaskList, TasksQuery
from loko.translations import operations, queries, service, undo
from loko.translations.schemas import (
    OperationsPage,
    TranslationCreate,
    TranslationEnvelope,
    TranslationId,
    UndoResult,
)
from loko.translations.writing import agent_writes


class UnknownTool(LookupError):
    pass


@dataclass(frozen=True)
class ToolSpec:
    name: str
    title: str
    description: str
    arguments: type
    result: type
    run: Callable[[ApiKeyActor, dict], dict]
    render: Callable[[dict], str]
    writes: bool = False
    destructive: bool = False
    idempotent: bool = False
    # The tool reaches services beyond Loko (machine translation providers).
    open_world: bool = False

    def listing(self) -> Tool:
        return Tool(
            name=self.name,
            title=self.title,
            description=self.description,
            input_schema=schemas.json_schema(self.arguments),
            output_schema=schemas.json_schema(self.result),
            annotations=ToolAnnotations(
                title=self.title,
                read_only_hint=not self.writes,
                destructive_hint=self.destructive if self.writes else None,
                idempotent_hint=self.idempotent if self.writes else None,
                open_world_hint=self.open_world,
            ),
        )


def _quote(text: str | None, width: int = 80) -> str:
    if text is None:
        return "(none)"
    flat = text.replace("\n", "\\n")
    return repr(flat if len(flat) <= width else flat[: width - 1] + "…")


def _more(next_cursor: str | None) -> str:
    return f'\nMore results: call again with cursor "{next_cursor}".' if next_cursor else ""


def _render_context(context: dict) -> str:
    project, counts = context["project"], context["counts"]
    lines = [
        f"Project {project['name']!r}: {counts['keys']} keys in {counts['files']} files, "
        f"{counts['languages']} languages; source language: {context['source_language'] or 'none yet'}."
    ]
    lines += [
        f"- {row['code']} ({row['name']}): {row['translated']}/{row['total']} translated "
        f"({row['progress']}%), {row['missing']} missing"
        + (f", {row['inherited']} inherited" if row["inherited"] else "")
        for row in context["languages"]
    ]
    lines += [f"- file {row['fileName']}: {row['keys']} keys" for row in context["files"]]
    if context["link"]:
        link = context["link"]
        lines.append(
            f"Linked to {link['project_name']!r}: its {link['source_language']} values fill gaps in "
            f"{link['target_language']} ({link['inherited_values']} inherited)."
        )
    if not context["permissions"]["canEditTranslations"]:
        lines.append("This API key is read-only: the write tools will refuse.")
    return "\n".join(lines)


def _render_files(result: dict) -> str:
    if not result["files"]:
        return "No files yet."
    return "\n".join(
        f"{row['fileName']}: {row['keys']} keys; languages: {', '.join(row['languages']) or 'none'}"
        for row in result["files"]
    )


def _render_languages(result: dict) -> str:
    if not result["languages"]:
        return "No languages yet."
    return "\n".join(
        f"{row['code']} ({row['name']}): {row['translated']}/{row['total']} translated ({row['progress']}%)"
        for row in result["languages"]
    )


def _render_search(result: dict) -> str:
    rows = result["results"]
    lines = [f"{len(rows)} match(es) for {result['query']!r}" + (":" if rows else ".")]
    for row in rows:
        values = "; ".join(f"{code}: {_quote(value, 60)}" for code, value in row["values"].items())
        lines.append(f"- {row['fileName']} / {row['key']} [{row['id']}] {values}")
    return "\n".join(lines) + _more(result["next_cursor"])


def _render_missing(result: dict) -> str:
    rows, language, source = result["missing"], result["language"], result["source_language"]
    lines = [
        f"{result['total']} key(s) have no {language} value; {len(rows)} on this page"
        + (":" if rows else ".")
    ]
    for row in rows:
        text = f"{source}: {_quote(row['source'])}" if source else "no source text"
        if row["maxLength"] is not None:
            text += f" (at most {row['maxLength']} characters)"
        if row["comment"] is not None:
            text += f"; note: {_quote(row['comment'])}"
        lines.append(f"- {row['fileName']} / {row['key']} — {text}")
    return "\n".join(lines) + _more(result["next_cursor"])


def _state_of(row: dict | None) -> str:
    """A value's review state as words: ``needs-review (agent)``."""
    if row is None:
        return ""
    return f"{row['state']} ({row['reason']})" if row["reason"] else row["state"]


def _render_translation(result: dict) -> str:
    lines = [f"{result['fileName']} / {result['key']} [{result['id']}]"]
    lines += [
        f"- {code}: {_quote(value, 200)}, {_state_of(result['states'].get(code))}"
        for code, value in result["values"].items()
    ]
    lines += [f"- {code} (inherited): {_quote(value, 200)}" for code, value in result["inherited"].items()]
    for label, name in (("Comment", "comment"), ("Context", "context"), ("Max length", "maxLength")):
        if result.get(name) is not None:
            lines.append(f"{label}: {result[name] if name == 'maxLength' else _quote(result[name], 500)}")
    for shot in result.get("screenshots", ()):
        where = "; ".join(f"{r['x']},{r['y']} {r['width']}x{r['height']}" for r in shot["regions"])
        lines.append(
            f"Screenshot {shot['name']} ({shot['width']}x{shot['height']}): at {where}, {shot['url']}"
        )
    if result["history"]:
        lines.append(f"Last {len(result['history'])} change(s):")
        lines += [
            f"- {entry['created_at']} {entry['action']} {entry['language'] or ''} by {entry['actor']['name']}"
            for entry in result["history"]
        ]
    return "\n".join(lines)


def _render_upsert(result: dict) -> str:
    return (
        f"{result['fileName']} [{result['language']}]: {result['created']} created, "
        f"{result['updated']} updated, {result['unchanged']} unchanged."
    )


def _render_created(result: dict) -> str:
    translation = result["translation"]
    return f"Created {translation['fileName']} / {translation['key']} [{translation['id']}]."


def _render_trashed(result: dict) -> str:
    return f"Moved translation {result['id']} to the trash; it can be restored from there."


def _get_project_context(actor, _args):
    return queries.project_context(actor, actor.project_id)


def _list_files(actor, _args):
    return {"files": queries.file_summaries(actor, actor.project_id)}


def _list_languages(actor, _args):
    return {"languages": list_languages(actor, actor.project_id, stats=True)}


def _search_translations(actor, args):
    return queries.search_translations(
        actor,
        actor.project_id,
        args["query"],
        args.get("language"),
        args.get("fileName"),
        args["limit"],
        args.get("cursor"),
    )


def _list_missing_translations(actor, args):
    return queries.missing_translations(
        actor,
        actor.project_id,
        args["language"],
        args.get("fileName"),
        args.get("source_language"),
        args["limit"],
        args.get("cursor"),
    )


def _get_translation(actor, args):
    translation = queries.translation_by_key(actor, actor.project_id, args["key"], args["fileName"])
    shown = screenshots.key_screenshots(actor, actor.project_id, translation["id"])
    translation["screenshots"] = [
        {
            "id": shot["id"],
            "name": shot["name"],
            "width": shot["width"],
            "height": shot["height"],
            "url": shot["urls"]["image"],
            "previewUrl": shot["urls"]["preview"],
            "regions": shot["keyRegions"],
        }
        for shot in shown
    ]
    return translation


def _upsert_translations(actor, args):
    counts = service.bulk_upsert(
        actor, actor.project_id, args["fileName"], args["languageCode"], args["translations"]
    )
    return {"fileName": args["fileName"], "language": args["languageCode"], **counts}


def _create_translation(actor, args):
    translation = service.create_translation(
        actor, actor.project_id, args["key"], args["fileName"], args["values"]
    )
    return {"translation": translation}


def _import_file(actor, args):
    options = ImportOptions(
        format=args["format"],
        language=args.get("language"),
        file_name=args["fileName"],
        mode=args["mode"],
        removed_keys=args["removedKeys"],
        dry_run=args["dryRun"],
    )
    return import_files(actor, actor.project_id, args["content"].encode("utf-8"), options)


def _render_import(result: dict) -> str:
    summary = result["summary"]
    lines = [
        ("Would change" if result["dryRun"] else "Imported") + f": {summary['created']} created, "
        f"{summary['updated']} updated, {summary['unchanged']} unchanged, {summary['trashed']} to the "
        f"trash, {summary['conflicts']} conflicts, {summary['notes']} with notes changed."
    ]
    lines += [
        f"+ {c['fileName']} {c['key']} [{c['language']}]: {_quote(c['value'])}"
        for c in result["created"][:20]
    ]
    lines += [
        f"~ {c['fileName']} {c['key']} [{c['language']}]: {_quote(c['old'])} -> {_quote(c['new'])}"
        for c in result["updated"][:20]
    ]
    lines += [f"- {c['fileName']} {c['key']}" for c in result["trashed"][:20]]
    return "\n".join(lines)


def _export_file(actor, args):
    languages = (args["language"],) if args.get("language") else None
    query = exports.ExportQuery(
        format=args["format"],
        languages=languages,
        file_names=(args["fileName"],),
        as_of=args.get("asOf"),
        release=args.get("release"),
        tags=TagFilter.from_query(args),
    )
    project, query, etag = exports.authorize(actor, actor.project_id, query)
    export = exports.build_export(project, query, etag, current_app.extensions["loko_export_cache"])
    body = export.body if isinstance(export.body, bytes) else b"".join(export.body)
    return {"fileName": args["fileName"], "format": args["format"], "content": body.decode("utf-8")}


def _render_export(result: dict) -> str:
    return result["content"]


def _list_releases(actor, args):
    return {"releases": releases.list_releases(actor, actor.project_id)}


def _render_releases(result: dict) -> str:
    lines = [f"{len(result['releases'])} release(s), newest first:"]
    for item in result["releases"]:
        frozen = " (string freeze holds)" if item["frozen"] else ""
        lines.append(f"- {item['name']}: as of {item['at']}{frozen}")
    return "\n".join(lines)


def _create_release(actor, args):
    return {"release": releases.create_release(actor, actor.project_id, args)}


def _render_release(result: dict) -> str:
    release = result["release"]
    return f"Release {release['name']} names the project as of {release['at']}."


def _delete_release(actor, args):
    releases.delete_release(actor, actor.project_id, args["name"])
    return {"success": True}


def _render_deleted(result: dict) -> str:
    return "Deleted."


def _compare_releases(actor, args):
    return releases.compare_releases(actor, actor.project_id, args["name"], args.get("with"))


def _render_comparison(result: dict) -> str:
    target = result["to"]["release"] or "now"
    keys = result["keys"]
    lines = [
        f"From {result['from']['release']} to {target}: {keys['addedCount']} key(s) added, "
        f"{keys['removedCount']} removed."
    ]
    for language, changes in result["languages"].items():
        counts = changes["counts"]
        lines.append(
            f"- {language}: {counts['added']} added, {counts['removed']} removed, {counts['changed']} changed"
        )
        lines += [
            f"  ~ {c['fileName']} {c['key']}: {_quote(c['old'])} -> {_quote(c['new'])}"
            for c in changes["changed"][:20]
        ]
    return "\n".join(lines)


def _list_operations(actor, args):
    kinds = [args["kind"]] if "kind" in args else None
    items, total = operations.list_operations(
        actor, actor.project_id, args["limit"], kinds=kinds, undoable=args.get("undoable")
    )
    return {"operations": items, "total": total}


def _render_operations(result: dict) -> str:
    lines = [f"{result['total']} operation(s), newest first:"]
    for item in result["operations"]:
        state = "undoable" if item["undoable"] else ("undone" if item["undone_at"] else "not undoable")
        details = ", ".join(
            f"{name}={value}" for name, value in item["details"].items() if name != "changes" and value
        )
        lines.append(f"- {item['id']} {item['kind']} by {item['actor']['name']} ({state}): {details}")
    return "\n".join(lines)


def _undo_changes(actor, args):
    selection = undo.Selection.from_fields(args)
    return undo.undo_changes(
        actor, actor.project_id, selection, args["dryRun"], args["skipChanged"], args["includeChanged"]
    )


def _render_undo(result: dict) -> str:
    summary = result["summary"]
    said = "Would undo" if result["dryRun"] else "Undone"
    counts = ", ".join(
        f"{name} {summary[name]}" for name in ("created", "updated", "deleted", "restored", "trashed")
    )
    text = f"{said}: {counts}; {summary['conflicts']} changed again since (left as they are)"
    text += f", {summary['included']} changed or reviewed since undone too." if summary["included"] else "."
    for item in result["conflicts"][:20]:
        by = f" by {item['by']}" if item["by"] else ""
        text += f"\n- {item['fileName']} {item['key']} {item['language'] or ''}: {item['reason']}{by}"
    return text


def _find_and_replace(actor, args):
    return replacing.replace_text(actor, actor.project_id, args)


def _render_replace(result: dict) -> str:
    if result["dryRun"]:
        lines = [f"{len(result['changes'])} value(s) would change:"]
        lines += [
            f"- {c['fileName']} {c['key']} ({c['language']}) [{c['translationId']}]: "
            f"{_quote(c['before'], 60)} -> {_quote(c['after'], 60)}"
            for c in result["changes"][:50]
        ]
    else:
        lines = [f"Applied to {result['applied']} value(s); operation {result['operationId'] or 'none'}."]
        lines += [
            f"- skipped {s['fileName']} {s['key']} ({s['language']}): {s['reason']}"
            for s in result["skipped"][:20]
        ]
    lines += [
        f"- refused {r['fileName']} {r['key']} ({r['language']}): {r['reason']}"
        for r in result["refused"][:20]
    ]
    lines += [f"- timed out {t['fileName']} {t['key']} ({t['language']})" for t in result["timedOut"][:20]]
    return "\n".join(lines) + _more(result.get("nextCursor"))


def _list_tags(actor, _args):
    return {"tags": tagging.list_tags(actor, actor.project_id)}


def _render_tags(result: dict) -> str:
    if not result["tags"]:
        return "No key has a tag."
    return "\n".join(f"- {tag['name']}: {tag['keys']} key(s)" for tag in result["tags"])


def _tag_keys(actor, args):
    return tagging.tag_keys(
        actor,
        actor.project_id,
        add=args["add"],
        remove=args["remove"],
        ids=args.get("ids"),
        key_filter=args.get("filter"),
    )


def _render_tagged(result: dict) -> str:
    return (
        f"{result['matched']} key(s) chosen: {result['added']} tag(s) added, {result['removed']} "
        f"removed; operation {result['operationId'] or 'none'}."
    )


def _suggest_translations(actor, args):
    return machine.suggest(actor, actor.project_id, args["fileName"], args["key"], args["language"])


def _render_suggestion(item: dict) -> str:
    if item["source"] == "memory":
        return f"- memory {item['score']}%: {_quote(item['text'], 500)}"
    if item["source"] == "glossary":
        rule = "never use" if item["forbidden"] else "use"
        return f"- glossary: for {_quote(item['term'])} {rule} {_quote(item['translation'])}"
    return f"- {item['provider']}: {_quote(item['text'], 500)}"


def _search_memory(actor, args):
    return memory.project_lookup(
        actor, actor.project_id, args["text"], args["language"], args["limit"], args["minScore"]
    )


def _render_memory(result: dict) -> str:
    if not result["matches"]:
        return "No match in the translation memory."
    return "\n".join(
        f"- {item['score']}% {_quote(item['text'], 500)} (for {_quote(item['source'], 200)}; "
        + (
            f"{item['projectName']}, {item['file']}: {item['key']})"
            if item["origin"] == "project"
            else "TMX)"
        )
        for item in result["matches"]
    )


def _render_suggestions(result: dict) -> str:
    lines = [_render_suggestion(item) for item in result["suggestions"]]
    lines += [f"- {item['provider']} failed: {item['error']}" for item in result["errors"]]
    return "\n".join(lines) if lines else "No machine translation provider is enabled for this organization."


def _search_glossary(actor, args):
    terms = glossary.search_project_glossary(
        actor, actor.project_id, args["query"], args.get("language"), args["limit"]
    )
    return {"terms": terms}


def _render_glossary(result: dict) -> str:
    lines = []
    for term in result["terms"]:
        translations = ", ".join(
            f"{t['language']}: {'never ' if t['forbidden'] else ''}{_quote(t['text'])}"
            for t in term["translations"]
        )
        line = f"- {_quote(term['term'])} ({term['language']}{', forbidden' if term['forbidden'] else ''})"
        line += f": {translations}" if translations else ""
        lines.append(line + (f" ({term['note']})" if term["note"] else ""))
    return "\n".join(lines) if lines else "No glossary term matches."


def _pretranslate(actor, args):
    answer = pretranslate.start(actor, actor.project_id, args)
    if answer.pop("dryRun"):
        return {"dryRun": True, "estimate": {"dryRun": True, **answer}}
    return {"dryRun": False, "job": answer["job"]}


def _render_pretranslate(result: dict) -> str:
    if result["dryRun"]:
        estimate = result["estimate"]
        return (
            f"Dry run: {estimate['missing']} value(s) missing; {estimate['fromMemory']} from the memory, "
            f"{estimate['toProvider']} for the provider ({estimate['providerCharacters']} characters in "
            f"{estimate['providerRequests']} request(s)). Nothing was written."
        )
    job = result["job"]
    return (
        f"Pre-translation queued as job {job['id']}. It writes only missing values, as needs-review, "
        "and can be undone as one operation (list_operations, undo_changes) once it has run."
    )


def _delete_translation(actor, args):
    service.delete_translation(actor, actor.project_id, args["id"], permanent=False)
    return {"id": args["id"], "trashed": True}


def _list_comments(actor, args):
    translation_id = comments.active_key_id(actor, actor.project_id, args["key"], args["fileName"])
    return {
        "comments": comments.list_comments(
            actor, actor.project_id, translation_id, args.get("language"), args["status"]
        )
    }


def _render_comments(result: dict) -> str:
    if not result["comments"]:
        return "No comments."
    return "\n".join(
        f"- [{item['id']}] {item['createdAt']} {item['author']['name']}"
        f"{' on ' + item['language'] if item['language'] else ''}"
        f"{' (resolved)' if item['resolved'] else ''}: {_quote(item['body'], 500)}"
        for item in result["comments"]
    )


def _add_comment(actor, args):
    translation_id = comments.active_key_id(actor, actor.project_id, args["key"], args["fileName"])
    comment = comments.add_comment(
        actor, actor.project_id, translation_id, args["body"], args.get("language")
    )
    return {"comment": comment}


def _render_comment(result: dict) -> str:
    comment = result["comment"]
    about = f"its {comment['language']} value" if comment["language"] else "the whole key"
    return f"Added comment {comment['id']} about {about}; it is open until someone resolves it."


def _list_tasks(actor, args):
    return {"tasks": tasks.list_tasks(actor, actor.project_id, args["state"])}


def _render_tasks(result: dict) -> str:
    if not result["tasks"]:
        return "No tasks."
    lines = []
    for task in result["tasks"]:
        done = task["progress"] or {}
        people = ", ".join(person["name"] for person in task["assignees"]) or "nobody"
        due = f", due {task['dueAt']}" if task["dueAt"] else ""
        lines.append(
            f"- [{task['id']}] {task['title']} ({task['kind']} {task['language']}, {task['state']}, "
            f"{done.get('percent', 0)}% done of {task['keyCount']} keys{due}; assigned to {people})"
        )
    return "\n".join(lines)


def _create_task(actor, args):
    return tasks.create_task(actor, actor.project_id, args)


def _render_task_created(result: dict) -> str:
    overlapping = result["overlaps"]
    also = (
        f" {len(overlapping)} of them are already in another open task of the same kind and language "
        f"(first: {overlapping[0]['fileName']} {overlapping[0]['key']} in {overlapping[0]['taskTitle']!r})."
        if overlapping
        else ""
    )
    task = result["task"]
    if task is None:
        return f"Dry run: a task would take {result['keyCount']} keys; nothing was made.{also}"
    people = ", ".join(person["name"] for person in task["assignees"]) or "nobody"
    return (
        f"Made task {task['id']} {task['title']!r} ({task['kind']} {task['language']}) over "
        f"{task['keyCount']} keys, assigned to {people}.{also}"
    )


def _set_task_state(state: str):
    def run(actor, args):
        return {"task": tasks.update_task(actor, actor.project_id, args["taskId"], {"state": state})}

    return run


def _render_task_state(result: dict) -> str:
    task = result["task"]
    done = (task["progress"] or {}).get("percent", 0)
    return (
        f"Task {task['id']} {task['title']!r} is {task['state']} ({done}% done of {task['keyCount']} keys)."
    )


def _list_issues(actor, args):
    filters = {name: args.get(name) for name in ("check", "language", "fileName")}
    return review.list_issues(actor, actor.project_id, filters, args["limit"], args["offset"])


def _render_issues(result: dict) -> str:
    counts = ", ".join(f"{row['language']} {row['check']}: {row['issues']}" for row in result["counts"])
    waiting = ", ".join(f"{row['language']}: {row['values']}" for row in result["needsReview"])
    lines = [
        f"{result['total']} issue(s)" + (f" ({counts})" if counts else "") + "; "
        f"waiting for a review: {waiting or 'none'}."
    ]
    lines += [
        f"- {item['fileName']} {item['key']} [{item['language']}] {item['check']}: {item['message']} "
        f"value {_quote(item['value'])}, {_state_of(item)}"
        + (f", fix {_quote(item['fix'])}" if item["fix"] is not None else "")
        for item in result["issues"]
    ]
    return "\n".join(lines)


def _list_review_queue(actor, args):
    filters = {name: args.get(name) for name in queue.QUEUE_FILTERS}
    return queue.review_queue(actor, actor.project_id, filters, args["limit"], args["offset"])


def _render_review_queue(result: dict) -> str:
    lines = [f"{result['total']} value(s)."]
    lines += [
        f"- {item['fileName']} {item['key']} [{item['language']}] {_state_of(item)}: {_quote(item['value'])}"
        + (f"; issues: {', '.join(item['checks'])}" if item["checks"] else "")
        for item in result["values"]
    ]
    return "\n".join(lines)


def _mark_reviewed(actor, args):
    return review.set_review_state(
        actor, actor.project_id, args["fileName"], args["keys"], args["languages"], args["state"]
    )


def _render_reviewed(result: dict) -> str:
    return f"{result['updated']} value(s) changed state."


def _list_proposals(actor, args):
    args = dict(args)
    limit, cursor = args.pop("limit"), args.pop("cursor", None)
    return proposals.list_queue(actor, actor.project_id, args, limit, cursor)


def _render_proposals(result: dict) -> str:
    if not result["proposals"]:
        return "No open proposals."
    lines = [
        f"{item['id']}: {item['fileName']} {item['key']} ({item['language']}) {_quote(item['text'])} "
        f"by {item['author']['name']}, {item['votes']:+d} votes"
        for item in result["proposals"]
    ]
    if result["nextCursor"]:
        lines.append(f"More: cursor {result['nextCursor']}")
    return "\n".join(lines)


def _propose(actor, args):
    translation_id = comments.active_key_id(actor, actor.project_id, args["key"], args["fileName"])
    proposal, created = proposals.propose(
        actor, actor.project_id, translation_id, args["language"], args["text"]
    )
    return {"proposal": proposal, "created": created}


def _render_proposal(result: dict) -> str:
    proposal = result["proposal"]
    if not result["created"]:
        return f"This text is proposed already: {proposal['id']} ({proposal['votes']:+d} votes)."
    return f"Proposed {proposal['id']}; it waits for a reviewer."


def _vote(actor, args):
    return proposals.vote(actor, actor.project_id, args["proposalId"], args["value"])


def _render_one(result: dict) -> str:
    return f"Proposal {result['id']}: {result['state']}, {result['votes']:+d} votes."


def _accept(actor, args):
    return proposals.accept(actor, actor.project_id, args["proposalId"], args.get("text"))


def _render_decision(result: dict) -> str:
    return f"Accepted {result['accepted']}, superseded {result['superseded']}."


def _reject(actor, args):
    return proposals.reject(actor, actor.project_id, args["proposalId"], args.get("reason"))


TOOLS = {
    tool.name: tool
    for tool in (
        ToolSpec(
            "get_project_context",
            "Project context",
            "Start here: the project's name and description, its languages with progress and "
            "missing counts, its files, the source language (the project's setting), "
            "the linked project it inherits from, counts, and whether this key may write.",
            schemas.NoArguments,
            schemas.ContextOut,
            _get_project_context,
            _render_context,
        ),
        ToolSpec(
            "list_files",
            "List files",
            "The project's files, each with its languages and number of keys.",
            schemas.NoArguments,
            schemas.FilesOut,
            _list_files,
            _render_files,
        ),
        ToolSpec(
            "list_languages",
            "List languages",
            "The project's languages with translated/total counts and progress in percent.",
            schemas.NoArguments,
            schemas.LanguagesOut,
            _list_languages,
            _render_languages,
        ),
        ToolSpec(
            "search_translations",
            "Search translations",
            "Find translations whose key or value contains `query` (case-insensitive). Filter by "
            "`language` (value matches) and `fileName`. Paginated: pass `next_cursor` back as `cursor`.",
            schemas.SearchArguments,
            schemas.SearchOut,
            _search_translations,
            _render_search,
        ),
        ToolSpec(
            "list_missing_translations",
            "List missing translations",
            "Keys that have no value in `language` (values inherited from a linked project count as "
            "present), each with the text in the source language and its other values as context. "
            "Paginated: pass `next_cursor` back as `cursor`. Fill them with upsert_translations.",
            schemas.MissingArguments,
            schemas.MissingPageOut,
            _list_missing_translations,
            _render_missing,
        ),
        ToolSpec(
            "get_translation",
            "Get a translation",
            "One translation by `key` and `fileName`: its values in every language with each "
            "one's review state (`states`: translated, reviewed or needs-review, and the `reason` "
            "it waits for a review), any value inherited from the linked project, its details "
            "(comment for translators, context, maximum length in characters), the screenshots "
            "that show it (the region where it is shown, and the image's URL on this server, "
            "fetched with the same API key) and its recent change history.",
            schemas.TranslationRef,
            schemas.TranslationDetailOut,
            _get_translation,
            _render_translation,
        ),
        ToolSpec(
            "upsert_translations",
            "Upsert translations",
            "Set the values of many keys in one language of one file, all or nothing (at most "
            "10,000 items, keys unique). Missing keys, files and languages are created. Returns "
            "created/updated/unchanged counts; every change is recorded in the history.",
            schemas.UpsertArguments,
            schemas.UpsertOut,
            _upsert_translations,
            _render_upsert,
            writes=True,
            idempotent=True,
        ),
        ToolSpec(
            "create_translation",
            "Create a translation",
            "Create a new key in a file with values per language (`values` may be empty); fails if "
            "the key already exists in that file.",
            TranslationCreate,
            TranslationEnvelope,
            _create_translation,
            _render_created,
            writes=True,
        ),
        ToolSpec(
            "import_file",
            "Import a translation file",
            "Import one file's text in any supported format into `fileName`. Answers the diff: keys "
            "created, values updated (old and new), unchanged, keys moved to the trash "
            "(`removedKeys: trash`), conflicts (`mode: only-new`). `dryRun` defaults to true: look "
            "at the diff first, then call again with dryRun false to write it in one transaction.",
            schemas.ImportArguments,
            schemas.ImportOut,
            _import_file,
            _render_import,
            writes=True,
            destructive=True,
            idempotent=True,
        ),
        ToolSpec(
            "export_file",
            "Export a translation file",
            "One file of the project in one language, as the text of any supported format (csv "
            "holds every language).",
            schemas.ExportArguments,
            schemas.ExportOut,
            _export_file,
            _render_export,
        ),
        ToolSpec(
            "list_releases",
            "List releases",
            "The project's releases (named moments of its history), newest first; export_file "
            "takes `release` to read a file as it was then.",
            schemas.NoArguments,
            ReleaseList,
            _list_releases,
            _render_releases,
        ),
        ToolSpec(
            "create_release",
            "Create a release",
            "Name a moment of the project's history (`name` like v1.2; `asOf` an instant or an "
            "operation id, now when left out), with an optional string freeze (`freezeFrom`, "
            "`freezeUntil`): source texts then change only for the project's admins.",
            schemas.ReleaseCreateArguments,
            schemas.ReleaseOutEnvelope,
            _create_release,
            _render_release,
            writes=True,
        ),
        ToolSpec(
            "delete_release",
            "Delete a release",
            "Delete a release by name (its freeze ends; the history stays).",
            schemas.ReleaseArguments,
            SuccessOut,
            _delete_release,
            _render_deleted,
            writes=True,
            destructive=True,
            idempotent=True,
        ),
        ToolSpec(
            "compare_releases",
            "Compare releases",
            "What changed from a release to another (`with`) or to now: keys added and removed, "
            "and per language the values added, removed and changed.",
            schemas.CompareArguments,
            ReleaseComparison,
            _compare_releases,
            _render_comparison,
        ),
        ToolSpec(
            "list_operations",
            "List bulk changes",
            "The project's bulk changes, newest first: imports, bulk upserts and deletes, file and "
            "language deletes, undos; each with its actor, counts and whether it can be undone.",
            schemas.OperationsArguments,
            OperationsPage,
            _list_operations,
            _render_operations,
        ),
        ToolSpec(
            "undo_changes",
            "Undo changes",
            "Undo a bulk change as a whole (`operationId` from list_operations), or every change of "
            "an actor (`actorType`, `actorId`) and/or time range (`since`, `until`). Each value goes "
            "back to what it was before; keys the changes created go to the trash. `dryRun` defaults "
            "to true: look at what it would do (and at `conflicts`, changes made again since) first. "
            "A value a reviewer marked reviewed after the change is a conflict too (`reason` "
            "reviewed since, with `by`). With conflicts the undo is refused unless `skipChanged` "
            "is true (keep them) or `includeChanged` is true (undo them too). The undo is recorded "
            "in the history and can itself be undone.",
            schemas.UndoArguments,
            UndoResult,
            _undo_changes,
            _render_undo,
            writes=True,
            destructive=True,
        ),
        ToolSpec(
            "suggest_translations",
            "Suggest translations",
            "Machine translations of one key (`fileName`, `key`) into `language` from each enabled "
            "provider of the organization (DeepL, LibreTranslate, a language model), from the "
            "key's source-language text. Placeholders are kept: a result that lost or invented "
            "one is refused and listed under `errors`. Review a suggestion before writing it with "
            "upsert_translations. Needs a write key.",
            SuggestionsQuery,
            SuggestionsOut,
            _suggest_translations,
            _render_suggestions,
            open_world=True,
        ),
        ToolSpec(
            "pretranslate",
            "Pre-translate missing values",
            "Fill the missing values (none, or empty) of `languages` in the background, from the "
            "organization's translation memory (`sources.memory.minScore`, 1-100) and/or a machine "
            "translation provider (`sources.provider`: its id or name), for every key with a "
            "source text, or only `files` and the keys `filter.search` finds. Values already there "
            "are never changed; results whose placeholders differ from the source are never "
            "saved; what it writes is needs-review, one operation undone as one. `dryRun` answers "
            "what it would fill and the provider requests it would cost, writing nothing. Needs a "
            "write key.",
            PretranslateIn,
            PretranslateStarted,
            _pretranslate,
            _render_pretranslate,
            writes=True,
            open_world=True,
        ),
        ToolSpec(
            "delete_translation",
            "Delete a translation",
            "Move a translation (by `id`) to the trash. It stays restorable from the trash until "
            "it is purged.",
            TranslationId,
            schemas.TrashedOut,
            _delete_translation,
            _render_trashed,
            writes=True,
            destructive=True,
        ),
        ToolSpec(
            "list_comments",
            "List comments",
            "The comments on a key (`key`, `fileName`), oldest first: questions and notes of "
            "translators and reviewers, each about the whole key or one `language`. Open ones by "
            "default; `status` resolved or all for the others.",
            schemas.ListCommentsArguments,
            CommentList,
            _list_comments,
            _render_comments,
        ),
        ToolSpec(
            "add_comment",
            "Add a comment",
            "Comment on a key (`key`, `fileName`), about the whole key or one `language`: a question "
            "for the team, or why a translation is as it is. At most 5,000 characters; it stays "
            "open until someone resolves it in the editor or over the REST API.",
            schemas.AddCommentArguments,
            CommentEnvelope,
            _add_comment,
            _render_comment,
            writes=True,
        ),
        ToolSpec(
            "list_issues",
            "List issues",
            "What the checks found in the project's values (placeholders, length, ...): counts per "
            "language and check, values waiting for a review, and a page of issues with the value, "
            "its review state and the `reason` it waits for a review, and, when certain, its fix. "
            "Filter by `check`, `language`, `fileName`; page with `offset`. Values written through "
            "this server wait for a review (needs-review, reason agent); list_review_queue lists "
            "them all.",
            schemas.IssuesArguments,
            ChecksPage,
            _list_issues,
            _render_issues,
        ),
        ToolSpec(
            "list_review_queue",
            "List the review queue",
            "The values waiting for a review (`state` needs-review, the default; or translated, "
            "reviewed), each with its key, file, language, text, why it waits (`reason`: "
            "source-changed, agent, pre-translated, machine-unedited, memory-unedited, requested, "
            "undone) and the checks with an open issue in it. Filter by `reason`, `check`, "
            "`language`, `fileName`; page with `offset`; `total` counts them all.",
            schemas.ReviewQueueArguments,
            ReviewQueuePage,
            _list_review_queue,
            _render_review_queue,
        ),
        ToolSpec(
            "search_glossary",
            "Search the glossary",
            "The organization glossary's terms whose text or a translation contains `query`, with "
            "their translations (`language`: only that language's), part of speech and note. A term "
            "found in a source text should be translated as the glossary says; forbidden ones must "
            "not be used.",
            GlossarySearchArguments,
            GlossarySearchOut,
            _search_glossary,
            _render_glossary,
        ),
        ToolSpec(
            "mark_reviewed",
            "Set review states",
            "Set the review state of the values of `keys` in `fileName` in `languages`: "
            "`needs-review` asks a person to review them. `reviewed` is a person's decision: an "
            "API key cannot mark values reviewed, so that state is refused here.",
            ReviewRequest,
            ReviewResult,
            _mark_reviewed,
            _render_reviewed,
            writes=True,
            idempotent=True,
        ),
        ToolSpec(
            "find_and_replace",
            "Find and replace",
            "Replace `find` by `replace` in the project's values: `mode` text (as written) or "
            "regex (`\\1`, `\\g<name>` insert groups), `matchCase`, `wholeWord`, filtered by "
            "`languages`, `fileName`, `search`, `state`, `tags` and `excludeTags`; the source "
            "language only with "
            "`includeSource`. First call it as it is (`dryRun` true): it lists each change "
            "`{translationId, language, before, after}`, the results refused (they would break a "
            "placeholder, tag or ICU syntax) and values that timed out. Then call it again with "
            "`dryRun` false and `items`, each `{translationId, language, expected}` with `expected` "
            "the preview's `before`: a value changed since is skipped. The apply is one operation "
            "(undo_changes takes it back); the values written wait for a review.",
            ReplaceRequest,
            ReplaceResult,
            _find_and_replace,
            _render_replace,
            writes=True,
        ),
        ToolSpec(
            "list_tasks",
            "List tasks",
            "The project's tasks (translating or reviewing a set of keys in one language), open ones "
            "first, each with its assignees, due date and progress derived from the values "
            "(`state`: open, closed or all). Open the editor's `task` filter to work on one.",
            TasksQuery,
            TaskList,
            _list_tasks,
            _render_tasks,
        ),
        ToolSpec(
            "create_task",
            "Create a task",
            "Make a task of translating or reviewing (`kind`) a set of keys in one `language`, with a "
            "`title`: the keys by id (`keys`) or those the editor's `filter` shows (`fileName`, "
            "`search`, `missing`, `changedSince`, `needsReview`, `issues`, `screenshots`; `{}` for "
            "all), frozen now. Assign people by `assigneeEmails` (or ids in `assignees`); `dueAt` is "
            "an ISO-8601 instant with its offset. Keys already in another open task of the same kind "
            "and language are taken too and listed in `overlaps`; `dryRun` counts without making. A "
            "write key makes tasks in the languages it writes, and gives a review task only to people "
            "who may already review that language; a read key cannot.",
            schemas.TaskCreateArguments,
            schemas.TaskCreatedOut,
            _create_task,
            _render_task_created,
            writes=True,
        ),
        ToolSpec(
            "close_task",
            "Close a task",
            "Close the task `taskId`: it leaves the open ones, and its assignees' temporary right to "
            "its keys ends. reopen_task opens it again.",
            schemas.TaskRef,
            schemas.TaskOutEnvelope,
            _set_task_state(CLOSED),
            _render_task_state,
            writes=True,
            idempotent=True,
        ),
        ToolSpec(
            "reopen_task",
            "Reopen a task",
            "Open the closed task `taskId` again (its assignees get their temporary right back).",
            schemas.TaskRef,
            schemas.TaskOutEnvelope,
            _set_task_state(OPEN),
            _render_task_state,
            writes=True,
            idempotent=True,
        ),
        ToolSpec(
            "list_tags",
            "List tags",
            "The project's tags on keys, each with how many active keys carry it. A tag narrows "
            "an export (export_file's `tag`, `tags`, `excludeTags`), a find and replace and a "
            "pre-translation to part of the project.",
            schemas.NoArguments,
            TagList,
            _list_tags,
            _render_tags,
        ),
        ToolSpec(
            "tag_keys",
            "Add or remove tags on keys",
            "Add the tags `add` to, and remove the tags `remove` from, the keys named by `ids` "
            "(translation ids, as get_translation and search_translations give them) or chosen by "
            "`filter` (`fileName`, `search` in the key, `tags` all carried, `excludeTags` none "
            "carried; `{}` is every key). A tag is 1 to 50 letters, digits and . _ - :. All or "
            "nothing, as one operation (undo_changes takes it back).",
            BulkTagRequest,
            BulkTagResult,
            _tag_keys,
            _render_tagged,
            writes=True,
            idempotent=True,
        ),
        ToolSpec(
            "search_memory",
            "Search the translation memory",
            "Translations into `language` of source-language texts like `text`, from this "
            "project, the organization's projects that share their values and its imported TMX "
            "files: best first, each with a `score` "
            "(0-100; placeholders count as alike whatever their syntax) and the project, file and "
            "key it comes from. `minScore` 100 asks for exact matches only.",
            MemoryQuery,
            MemoryAnswer,
            _search_memory,
            _render_memory,
        ),
        ToolSpec(
            "list_proposals",
            "List proposals",
            "The open proposals of the project (texts proposed for a key and language, waiting for "
            "a reviewer), each with its net `votes`, author, origin (person, machine, memory) and "
            "the key's current value: best-voted first (`sort` oldest or newest for the others), "
            "filtered by `language`, `fileName`, `minVotes`; page with `cursor` (nextCursor). Not "
            "the suggestions (memory and machine translation) of suggest_translations.",
            QueueQuery,
            QueuePage,
            _list_proposals,
            _render_proposals,
        ),
        ToolSpec(
            "propose_translation",
            "Propose a translation",
            "Propose `text` for a key (`key`, `fileName`) in `language`, for a reviewer to accept: "
            "nothing is written to the values. The same text already proposed is answered as it is. "
            "Needs a write key.",
            schemas.ProposeArguments,
            ProposalEnvelope,
            _propose,
            _render_proposal,
            writes=True,
        ),
        ToolSpec(
            "vote_proposal",
            "Vote on a proposal",
            "A person's +1 or -1 on a proposal (`proposalId`). Votes are people's, one each: an API "
            "key does not vote, so this server, which takes API keys, answers the refusal; vote in "
            "the review queue or over the REST API with a session.",
            schemas.VoteArguments,
            ProposalOut,
            _vote,
            _render_one,
            writes=True,
            idempotent=True,
        ),
        ToolSpec(
            "accept_proposal",
            "Accept a proposal",
            "Accept a proposal (`proposalId`; `text` to write an edit of it): a reviewer's decision. "
            "An API key does not review, so this server answers the refusal; a reviewer accepts in "
            "the review queue or over the REST API with a session.",
            schemas.AcceptArguments,
            DecisionOut,
            _accept,
            _render_decision,
            writes=True,
        ),
        ToolSpec(
            "reject_proposal",
            "Reject a proposal",
            "Reject a proposal (`proposalId`, with a `reason`): a reviewer's decision, refused to an "
            "API key as accept_proposal is.",
            schemas.RejectArguments,
            ProposalOut,
            _reject,
            _render_one,
            writes=True,
        ),
    )
}


def listing() -> list[Tool]:
    return [tool.listing() for tool in TOOLS.values()]


def _tool_error(message: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=message)], is_error=True)


def call_tool(actor: ApiKeyActor, name: str, arguments: dict | None) -> CallToolResult:
    """Run a tool; UnknownTool for a name not in the table. Invalid arguments and refusals
    by a service (permission, not found, conflict) come back as a tool error."""
    tool = TOOLS.get(name)
    if tool is None:
        raise UnknownTool(name)
    field = nul_field(arguments)
    if field is not None:
        return _tool_error(
            f"Invalid arguments: {field or 'arguments'}: must not contain the NUL character (U+0000)."
        )
    try:
        args = tool.arguments().load(arguments or {})
        with agent_writes():
            result = tool.result().dump(tool.run(actor, args))
    except ValidationError as error:
        return _tool_error(f"Invalid arguments: {describe_validation(error.messages)}")
    except LokoError as error:
        return _tool_error(f"{type(error).__name__}: {error.message}")
    return CallToolResult(
        content=[TextContent(type="text", text=tool.render(result))], structured_content=result
    )
