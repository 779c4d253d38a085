"""The service layer's refusals in the page's language. The services word their errors in
English for the REST API and the MCP server (which stay English); a page shows the same
error through :func:`page_message`, which finds the message's pattern in ``REFUSALS`` (each
message as the service words it, its variable parts as named parameters), translates the
pattern and puts the parameters back (themselves translated where they are a product word
or another refusal). A message no pattern matches is shown as it is. tests/i18n holds this
table to the messages raised in the code, so a new refusal must be added here."""

# ruff: noqa: E501 - each message whole, as the service words it, to be found by a search
import re
from functools import cache

from flask_babel import force_locale, gettext, lazy_gettext

from loko.web.issue_texts import refused_from_issues, refused_text
from loko.web.issue_texts import script_table as issue_script_table
from loko.web.labels import KNOWN, label
from loko.web.patterns import compile_patterns, match

REFUSALS = (
    # loko/apikeys/
    lazy_gettext("expiresAt: must be in the future."),
    lazy_gettext("languages: only a write key can be limited to languages (a read key writes none)."),
    lazy_gettext("API key not found."),
    # loko/auth/
    lazy_gettext("Only an owner or admin of the organization can rename it."),
    lazy_gettext("Only an owner of the organization can delete it."),
    lazy_gettext("Only an owner or admin of the organization can invite people or manage invitations."),
    lazy_gettext("Only an owner or admin of the organization can manage its machine translation providers."),
    lazy_gettext("Only an owner or admin of the organization can change its glossary."),
    lazy_gettext("Only an owner or admin of the organization can read its audit log."),
    lazy_gettext("Only an owner or admin of the organization can export or import its translation memory."),
    lazy_gettext(
        "Your edits in this project are limited to %(languages)s; creating, renaming or deleting keys, and changing key details, files or languages, needs edit rights in every language."
    ),
    lazy_gettext("Only the comment's author or a project admin can delete a comment."),
    lazy_gettext(
        "language: the source texts (%(source)s) are frozen for the release %(release)s%(end)s; only the project's admins may change them meanwhile."
    ),
    lazy_gettext("Project not found."),
    lazy_gettext("You do not have the %(permission)s permission on this project."),
    lazy_gettext("language: you may not edit %(refused)s in this project."),
    lazy_gettext(
        "%(reviewed)s: the value is reviewed and this project protects reviewed values; propose the change instead (POST /api/projects/{id}/proposals)."
    ),
    lazy_gettext("language: you may not propose values in %(code)s in this project."),
    lazy_gettext("language: you may not accept or reject proposals in %(refused)s in this project."),
    lazy_gettext("body: only the comment's author can change its text."),
    lazy_gettext("Only an owner can invite an owner, or revoke an owner's invitation."),
    lazy_gettext("Only an owner can make someone an owner, or change or remove an owner."),
    lazy_gettext("Organization not found."),
    lazy_gettext("This requires the organization role %(roles)s."),
    lazy_gettext("This action requires a signed-in user session; API keys cannot do it."),
    lazy_gettext(
        "A contributor proposes changes (POST /api/projects/{id}/proposals) and never writes values."
    ),
    lazy_gettext(
        "language: values in %(proposed)s change through proposals in this project; propose the text instead (POST /api/projects/{id}/proposals)."
    ),
    lazy_gettext("Invalid email or password."),
    lazy_gettext(
        "token: this link to choose a new password is not valid any more (used, expired or altered); ask for a new one."
    ),
    lazy_gettext("email: at most %(max_email)s characters."),
    lazy_gettext("Password sign-in is turned off on this installation; sign in with your identity provider."),
    lazy_gettext("Session is invalid or has expired; sign in again."),
    lazy_gettext("email: a user with this email already exists."),
    lazy_gettext("Sign-up is closed on this installation; ask an administrator for an account."),
    lazy_gettext("current_password: this is not your current password; nothing was changed."),
    lazy_gettext("No user has the email %(email)s."),
    # loko/comments/
    lazy_gettext("translationId: no translation with this id in this project."),
    lazy_gettext("commentId: no comment with this id on this key."),
    lazy_gettext("key: no active translation %(key)s in the file %(file_name)s."),
    lazy_gettext("translationId: the key is in the trash; restore it to place it on a screenshot."),
    # loko/exports/
    lazy_gettext("asOf: ask for a moment or for a release, not both."),
    lazy_gettext("state: reviewed values only cannot be exported as of a past moment."),
    lazy_gettext(
        "format=%(format)s without zip returns one file: pass %(needs)s, or set zip=true for all of them."
    ),
    lazy_gettext(
        "format=%(format)s cannot hold this project's keys: %(error)s. Export it in another format (json keeps every key), or rename the key."
    ),
    # loko/files/
    lazy_gettext("fileName: no file %(file_name)s in this project."),
    lazy_gettext("languageCode: the file %(file_name)s has no %(language_code)s version."),
    lazy_gettext("newFileName: a file %(new_file_name)s already exists."),
    # loko/formats/
    lazy_gettext("format: unknown format %(name)s; one of %(format_names)s."),
    lazy_gettext(
        "format: cannot tell the format of %(path)s from its name; pass `format` (one of %(format_names)s)."
    ),
    # loko/glossary/
    lazy_gettext("Glossary term not found."),
    lazy_gettext("%(where)s: must not be empty."),
    lazy_gettext("%(where)s: must be at most %(limit)s characters."),
    lazy_gettext("%(where)s: must not contain control characters."),
    lazy_gettext("%(where)s: must not contain the NUL character."),
    lazy_gettext("%(where)s: more than %(max_translations)s translations."),
    lazy_gettext("term: %(term)s (%(language)s) is in the glossary already."),
    lazy_gettext("term: the glossary has %(max_terms)s terms, its limit."),
    lazy_gettext("content: not UTF-8."),
    lazy_gettext("content: the glossary would have more than %(max_terms)s terms, its limit."),
    lazy_gettext(
        "%(field)s.%(index)s: %(language)s has the translation %(allowed)s already; a term has one allowed translation per language (mark others forbidden)."
    ),
    # loko/http
    lazy_gettext("%(value)s: must not contain the NUL character (U+0000)."),
    lazy_gettext("Cross-origin requests that change state are not allowed."),
    lazy_gettext("Cross-site requests that change state are not allowed."),
    # loko/imports/
    lazy_gettext(
        "file: the project changed since the preview, so this import would now change something the preview did not show; nothing was imported. Preview the upload again."
    ),
    lazy_gettext("file: %(total)s entries or more; an import takes at most %(max_entries)s."),
    lazy_gettext("pathTemplate: must contain {fileName}."),
    lazy_gettext("file: the archive has %(count)s members; at most %(max_archive_members)s."),
    lazy_gettext("file: the archive holds no translation file."),
    lazy_gettext(
        "fileName: %(file_name)s must be 1-%(max_file_name)s characters without control characters."
    ),
    lazy_gettext("fileName: %(file_name)s must be a relative path without '.', '..' or empty segments."),
    lazy_gettext("fileName: required for a single file (the file's name in Loko)."),
    lazy_gettext("language: required for %(path)s (format %(name)s holds one language)."),
    lazy_gettext("file: %(path)s is not a valid %(name)s file: %(error)s"),
    lazy_gettext("file: %(path)s is nested too deeply."),
    lazy_gettext("language: %(path)s has %(spelled)s and %(given)s, both the language %(code)s."),
    lazy_gettext("file: not a valid ZIP archive (%(error)s)."),
    lazy_gettext("file: the ZIP archive is damaged (%(error)s)."),
    lazy_gettext(
        "file: the ZIP archive uses a compression method that cannot be read (%(error)s); store its files uncompressed or with Deflate, bzip2 or LZMA."
    ),
    lazy_gettext("file: the archive member %(name)s points outside the archive."),
    lazy_gettext("file: the archive member %(name)s is encrypted."),
    lazy_gettext("file: the archive unpacks to too much data (at most 256 MiB, 200 times its size)."),
    lazy_gettext("file: the archive member %(name)s is not the size its header says."),
    lazy_gettext("key: %(key)s %(where)s must be 1-%(max_key)s characters without control characters."),
    lazy_gettext("key: %(key)s %(where)s must not begin or end with a space."),
    lazy_gettext("key: %(key)s appears twice %(where)s."),
    lazy_gettext("value: the value of %(key)s %(where)s is longer than %(max_value)s characters."),
    lazy_gettext("context: the context of %(key)s %(where)s is longer than %(max_context)s characters."),
    lazy_gettext("comment: the comment of %(key)s %(where)s is longer than %(max_comment)s characters."),
    lazy_gettext("file: %(seen)s and %(path)s are both the file %(file_name)s in %(language)s."),
    lazy_gettext("language: %(error)s (a language of %(path)s)"),
    lazy_gettext("file: the archive member %(name)s does not match pathTemplate %(chosen)s."),
    lazy_gettext("%(name)s: the %(name2)s of %(key)s %(where)s contains a NUL character (U+0000)."),
    lazy_gettext("language: %(path)s has no column %(language)s (it has %(value)s)."),
    lazy_gettext("language: %(error)s (in the path %(name)s)"),
    lazy_gettext("This import has expired or was already confirmed or cancelled: upload the file again."),
    lazy_gettext("mode: one of %(modes)s."),
    lazy_gettext("removedKeys: one of %(removed_keys)s."),
    # loko/jobs/
    lazy_gettext("Job not found."),
    lazy_gettext("job: it has already finished (%(state)s)."),
    # loko/languages/
    lazy_gettext(
        "code: %(code)s is the project's source language; choose another source language in the project's settings first."
    ),
    lazy_gettext("code: the project has no language %(code)s."),
    lazy_gettext("code: the project already has the language %(code)s."),
    lazy_gettext("currentCode: the project has no language %(current_code)s."),
    lazy_gettext("code: the language %(code)s is used by a linked-project setting; unlink first."),
    # loko/machine/
    lazy_gettext("sources: choose the memory, a provider, or both."),
    lazy_gettext("languages: the project has no source language to translate from."),
    lazy_gettext("sources.memory: translation memory is not available"),
    lazy_gettext("sources.provider: the organization has no such provider."),
    lazy_gettext("sources.provider: the provider %(name)s is disabled."),
    lazy_gettext("languages.%(index)s: the project has no language %(code)s."),
    lazy_gettext("languages.%(index)s: %(code)s is the project's source language."),
    lazy_gettext("files.%(index)s: the project has no file %(name)s."),
    lazy_gettext("Machine translation provider not found."),
    lazy_gettext("language: the project has no source language to translate from."),
    lazy_gettext("language: %(language)s is the project's source language."),
    lazy_gettext("Translation not found."),
    lazy_gettext("key: %(key)s has no text in the source language %(source_language)s to translate."),
    # loko/memory/
    lazy_gettext("language: the project has no source language to look up from."),
    lazy_gettext("file: the upload is empty."),
    # loko/notifications/
    lazy_gettext("token: this unsubscribe link is not valid."),
    lazy_gettext("rules.%(kind)s: not a kind of notification."),
    lazy_gettext("rules.%(kind)s: one of %(channels)s."),
    lazy_gettext("rules.%(kind)s: e-mail is not set up on this server (no SMTP host)."),
    # marshmallow's own input checks with a parameter (a page's form through the API's schemas)
    lazy_gettext("Must be one of: %(choices)s."),
    lazy_gettext("Longer than maximum length %(max)s."),
    lazy_gettext("Shorter than minimum length %(min)s."),
    lazy_gettext("Length must be between %(min)s and %(max)s."),
    lazy_gettext("Must be greater than or equal to %(min)s and less than or equal to %(max)s."),
    lazy_gettext("Must be greater than or equal to %(min)s."),
    lazy_gettext("Must be less than or equal to %(max)s."),
    # loko/organizations/
    lazy_gettext("email: e-mail is not set up on this server (no SMTP host); hand the link on."),
    lazy_gettext("This invitation link is not valid: check that it was copied whole, or ask for a new one."),
    lazy_gettext("This invitation link has already been used; ask whoever invited you for a new one."),
    lazy_gettext("This invitation link was revoked; ask whoever invited you for a new one."),
    lazy_gettext("This invitation link has expired; ask whoever invited you for a new one."),
    lazy_gettext("You are already a member of this organization; the invitation was left unused."),
    lazy_gettext(
        "confirm_name: type the organization's name exactly as shown to delete it; nothing was deleted."
    ),
    lazy_gettext("email: no user with this email exists."),
    lazy_gettext("This user is not a member of the organization."),
    lazy_gettext("The last owner of an organization cannot stop being an owner."),
    lazy_gettext("Invitation not found, or no longer pending."),
    lazy_gettext("email: this user is already a member of the organization."),
    lazy_gettext("The last owner of an organization cannot be removed."),
    # loko/projects/
    lazy_gettext("checks.%(code)s: no such check; one of %(check_codes)s."),
    lazy_gettext("checks.%(code)s: one of %(levels)s."),
    lazy_gettext(
        "linked_project_id, linked_language_code and linked_language_target_code are set together: give all three, or all three as null to unlink."
    ),
    lazy_gettext("linked_project_id: a project cannot be linked to itself."),
    lazy_gettext("linked_project_id: no such project in this project's organization."),
    lazy_gettext("linked_language_code: %(source_code)s is not a language of the linked project."),
    lazy_gettext("linked_language_target_code: %(target_code)s is not a language of this project."),
    lazy_gettext("linked_project_id: this link would create a cycle of linked projects."),
    lazy_gettext("source_language: choose one of the project's languages."),
    lazy_gettext("source_language: %(code)s is not a language of this project."),
    lazy_gettext("confirm_name: type the project's name exactly as shown to delete it; nothing was deleted."),
    lazy_gettext("This user is not a member of the project's organization."),
    lazy_gettext("%(field)s.%(index)s: %(code)s is not a language of this project."),
    # loko/proposals/
    lazy_gettext("An admin of this project has blocked you from proposing in it."),
    lazy_gettext("userId: this person is not blocked in this project."),
    lazy_gettext("userId: no user with this id."),
    lazy_gettext("language: no language %(code)s to read in this project."),
    lazy_gettext(
        "values: the undo would overwrite reviewed values (%(values)s) and this project protects reviewed values; ask a reviewer to undo it, or propose the texts instead."
    ),
    lazy_gettext("proposalId: the proposal is %(state)s, no longer open."),
    lazy_gettext("proposalId: no proposal with this id in this project."),
    lazy_gettext("language: the project has no language %(code)s."),
    lazy_gettext("value: nobody votes on their own proposal."),
    lazy_gettext("text: this is the key's value already in this language."),
    lazy_gettext("text: this text was just proposed; vote for it instead."),
    lazy_gettext("proposalId: the key is in the trash; restore it first."),
    lazy_gettext("text: you proposed this text already; it is open."),
    lazy_gettext("languages.%(code)s.autoAcceptVotes: the votes mode needs a number of votes."),
    # loko/quality/
    lazy_gettext("state: one of %(value_states)s."),
    lazy_gettext("reason: one of %(review_reasons)s."),
    lazy_gettext("languages.%(index)s: %(code)s is not a language of this project."),
    # loko/releases/
    lazy_gettext("%(field)s: this project has no release named %(name)s."),
    lazy_gettext("freezeUntil: the freeze must end after it begins."),
    lazy_gettext("name: this project already has a release named %(name)s."),
    # loko/replace/
    lazy_gettext(
        "find: the pattern's counted repetitions ({n}) expand to more than %(max_pattern_weight)s steps; use * or + or smaller counts."
    ),
    lazy_gettext("find: not a valid regular expression: %(error)s."),
    lazy_gettext("replace: not a valid replacement for this pattern: %(error)s."),
    lazy_gettext(
        "find: the regular expression ran out of time (%(value_timeout)s s a value) on more than %(max_timeouts)s values; nothing was written. Simplify it (fewer nested repetitions)."
    ),
    lazy_gettext(
        "items.%(index)s.language: %(source)s is the project's source language; send includeSource: true to replace in it."
    ),
    lazy_gettext(
        "languages.%(index)s: %(code)s is the project's source language; send includeSource: true to replace in it."
    ),
    # loko/repohost/
    lazy_gettext("repohost: no repository is configured for this project."),
    lazy_gettext("path: must contain {fileName}."),
    lazy_gettext(
        "path: must contain {language}, {locale} or {android} (format %(fmt)s holds one language per file)."
    ),
    lazy_gettext("path: must be a relative path inside the repository."),
    lazy_gettext("token: required to configure a repository."),
    lazy_gettext(
        "token: required again when %(changed)s changes; the stored token is only used with the provider, API URL and repository it was given for."
    ),
    lazy_gettext("repohost: a push or sync of this project is running; try again when it ends."),
    lazy_gettext(
        "repohost: %(branch)s has moved since the preview, from %(commit)s to %(commit2)s; nothing was imported."
    ),
    lazy_gettext("path: no file on %(branch)s matches %(path)s."),
    lazy_gettext("path: %(error)s; nothing was pushed."),
    # loko/screenshots/
    lazy_gettext("file: send a ZIP archive of images (and screenshots.json)."),
    lazy_gettext("file: not a ZIP archive; send the images and screenshots.json as one ZIP."),
    lazy_gettext("%(manifest)s: screenshots: %(regions)s regions; at most %(most_regions)s in one archive."),
    lazy_gettext("file: the archive holds no image (PNG, JPEG or WebP)."),
    lazy_gettext("screenshotId: the image of %(id)s is missing from the data folder."),
    lazy_gettext("%(manifest)s: must be a JSON object with a list `screenshots`."),
    lazy_gettext("%(manifest)s: screenshots.%(index)s.image: %(image)s is not an image in the archive."),
    lazy_gettext("%(manifest)s: screenshots.%(index)s.image: %(image)s is listed twice."),
    lazy_gettext(
        "file: the archive member %(filename)s is %(file_size)s bytes; a member may be up to %(value)s MiB (LOKO_SCREENSHOT_MAX_MB)."
    ),
    lazy_gettext("file: the archive has two members named %(name)s."),
    lazy_gettext("file: the archive holds more than %(most_images)s images; at most %(most_images2)s."),
    lazy_gettext("%(manifest)s: not valid JSON (%(error)s)."),
    lazy_gettext("file: the archive member %(name)s: %(refused)s"),
    lazy_gettext("%(manifest)s: screenshots.%(index)s.regions.%(number)s.%(message)s"),
    lazy_gettext("%(label)s carries a file %(name)s that is not a screenshot's image; nothing was restored."),
    lazy_gettext("%(label)s carries an image %(name)s whose bytes are not its name's; nothing was restored."),
    lazy_gettext("not a screenshot's image: %(name)s"),
    lazy_gettext(
        "%(field)s: the project would have %(value)s screenshots; at most %(per_project)s (LOKO_SCREENSHOTS_PER_PROJECT)."
    ),
    lazy_gettext("files: send at least one image (PNG, JPEG or WebP)."),
    lazy_gettext("files: at most %(most_files)s images in one upload, not %(count)s."),
    lazy_gettext("screenshotId: no screenshot with this id in this project."),
    lazy_gettext("screenshotId: the image's file is missing from the data folder."),
    lazy_gettext("width: x + width is %(value)s; the image is %(width)s pixels wide."),
    lazy_gettext("height: y + height is %(value)s; the image is %(height)s pixels high."),
    lazy_gettext("regionId: no region with this id on this screenshot."),
    lazy_gettext("key: no key %(key)s in the file %(file_name)s."),
    lazy_gettext(
        "files[%(index)s]: %(count)s bytes; an image may be up to %(value)s MiB (LOKO_SCREENSHOT_MAX_MB)."
    ),
    lazy_gettext("screenshotId: the screenshot is not in the trash."),
    lazy_gettext("screenshotId: the screenshot is already in the trash."),
    # loko/secrets
    lazy_gettext("%(what)s cannot be decrypted (LOKO_SECRET_KEY changed); configure it again."),
    # loko/sso/
    lazy_gettext("%(label)s's discovery document names the issuer %(get)s, not the configured %(issuer)s"),
    lazy_gettext("%(label)s did not sign you in: %(description)s"),
    lazy_gettext("%(label)s's answer carries no authorization code; sign in again."),
    lazy_gettext(
        "This sign-in answer is not valid: it was already used, or was not started here. Sign in again."
    ),
    lazy_gettext("This sign-in took longer than %(pending_minutes)s minutes; sign in again."),
    lazy_gettext("This sign-in was started in another browser or for another provider; sign in again."),
    lazy_gettext("%(label)s sent no ID token; check that the openid scope is allowed."),
    lazy_gettext("%(label)s's userinfo is about another subject than its ID token."),
    lazy_gettext("%(label)s's subject or issuer is longer than %(max_subject)s characters."),
    lazy_gettext(
        "%(label)s sent no e-mail address, which a new Loko account needs; ask an administrator to allow the email scope."
    ),
    lazy_gettext(
        "Your e-mail address at %(label)s is not verified, so it can neither be matched to a Loko account nor create one."
    ),
    lazy_gettext(
        "No Loko account is linked to this %(label)s account, and new accounts for %(rpartition)s need an invitation: ask an administrator for an invitation link."
    ),
    lazy_gettext("%(label)s's default_organization does not exist; ask an administrator to correct it."),
    lazy_gettext("%(label)s cannot be reached at %(discovery_url)s: %(reason)s"),
    lazy_gettext("%(label)s's discovery document has no %(endpoint)s"),
    lazy_gettext("%(label)s cannot be reached: %(reason)s"),
    lazy_gettext("%(label)s refused the authorization code (%(error)s); sign in again."),
    lazy_gettext(
        "%(label)s's ID token has expired; sign in again (if this repeats, check the clocks of this server and the provider)."
    ),
    lazy_gettext("%(label)s's ID token has a signature that does not verify."),
    lazy_gettext(
        "%(label)s's ID token was issued for another application (wrong audience): it does not name this Loko's client_id %(client_id)s."
    ),
    lazy_gettext("%(label)s's ID token was issued by another issuer than %(issuer)s."),
    lazy_gettext("%(label)s's ID token does not answer this sign-in (nonce); sign in again."),
    lazy_gettext("%(label)s's ID token has a missing or invalid %(claim)s."),
    lazy_gettext("%(label)s's ID token is not valid (%(name)s)."),
    lazy_gettext("%(label)s's keys cannot be read: %(reason)s"),
    lazy_gettext("%(label)s's userinfo cannot be read: %(reason)s"),
    lazy_gettext("This account was signed in twice at once; sign in again."),
    lazy_gettext(
        "A Loko account already has this e-mail address, but the provider does not say the address is verified; sign in with that account's password instead."
    ),
    lazy_gettext("the key set at %(jwks_uri)s has no keys"),
    lazy_gettext("the keys at %(jwks_uri)s cannot be read: %(reason)s"),
    # loko/tags/
    lazy_gettext("add: name at least one tag to add or to remove."),
    lazy_gettext("add: at most %(max_tags)s tags to add and remove in one request."),
    lazy_gettext("remove: %(both)s is both added and removed; name it once."),
    lazy_gettext("filter: choose the keys by ids or by a filter, not both."),
    lazy_gettext("id: no active translation with this id in this project."),
    lazy_gettext("ids.%(index)s: no active translation with this id in this project."),
    # loko/tasks/
    lazy_gettext("taskId: no task with this id in this project."),
    lazy_gettext("filter: choosing keys by a filter is not available."),
    lazy_gettext("assignees.%(index)s: %(user_id)s is not a member of this project."),
    lazy_gettext("keys: no active key matches; a task needs at least one key."),
    lazy_gettext("assigneeEmails.%(index)s: nobody of this project has the e-mail %(email)s."),
    # loko/translations/
    lazy_gettext("The translation is already in the trash."),
    lazy_gettext("The translation is not in the trash."),
    lazy_gettext("Cannot %(event)s a %(state)s translation."),
    lazy_gettext("operationId: no operation with this id in this project."),
    lazy_gettext("source_language: must differ from language."),
    lazy_gettext("entry: no history entry with this id in this project."),
    lazy_gettext("entry: this change has no earlier value to go back to."),
    lazy_gettext("entry: the translation %(key)s has been deleted permanently."),
    lazy_gettext("entry: the translation %(key)s is in the trash; restore it first."),
    lazy_gettext("entry: the translation changed meanwhile; reload the history and try again."),
    lazy_gettext("id: no translation with this id in this project."),
    lazy_gettext("key: %(key)s is not in the file %(file_name)s, and %(key_creation_refused)s"),
    lazy_gettext(
        "%(fields)s: not the stored value (it changed since it was read); nothing was written. details.conflicts holds the current values: send one as expected to overwrite it."
    ),
    lazy_gettext("id: no translation with this id in the trash."),
    lazy_gettext("key: %(key)s already exists in the file %(file_name)s."),
    lazy_gettext("items: %(names)s not in the file %(file_name)s, and %(key_creation_refused)s"),
    lazy_gettext(
        "key: %(key)s exists again in %(file_name)s; rename or delete that translation before restoring."
    ),
    lazy_gettext("%(field)s: give the instant with its offset (2026-01-31T12:00:00Z)."),
    lazy_gettext("%(field)s: %(isoformat)s is in the future."),
    lazy_gettext("%(field)s: the project did not exist yet at %(isoformat)s."),
    lazy_gettext("%(field)s: neither an ISO-8601 instant nor an operation of this project."),
    lazy_gettext("includeChanged: choose skipChanged or includeChanged, not both."),
    lazy_gettext("operationId: this operation has already been undone."),
    lazy_gettext("operationId: this operation deleted for good; it cannot be undone."),
    lazy_gettext("operationId: what this operation removed has been deleted for good since."),
    lazy_gettext(
        "operationId: name an operation, or choose the changes to undo by actor, since, until, fileName or language."
    ),
    lazy_gettext(
        "operationId: %(count)s of these changes were changed again since; nothing was undone. details.conflicts lists them; send skipChanged: true to undo the rest and keep them, or includeChanged: true to undo them too."
    ),
    # loko/web/
    lazy_gettext("The form has expired or did not come from this site: reload the page and try again."),
    # loko/webhooks/
    lazy_gettext("events: unknown event %(unknown)s."),
    lazy_gettext("events: choose at least one event."),
    lazy_gettext("Webhook not found."),
    lazy_gettext("Delivery not found."),
    # loko/workspace/
    lazy_gettext("inherited: this project has no linked project to inherit values from."),
    lazy_gettext("before: give either after or before, not both."),
    lazy_gettext("issues: %(any_check)s or the code of a check, not %(issues)s."),
    lazy_gettext("filter.issues: %(any_check)s or the code of a check."),
    lazy_gettext("filter.missing: the project has no language %(missing)s."),
    lazy_gettext("check: %(check)s proposes no fix for this value (any more); reload to see it now."),
    lazy_gettext("%(name)s: the project has no language %(code)s."),
    lazy_gettext("task: no task with this id in this project."),
    lazy_gettext("%(name)s: not a page position of this editor; start again from the first page."),
)
# A field's name before its message (``code: ...``, ``languages.2: ...``), kept as it is when
# the rest is translated on its own.
FIELD_PREFIX = re.compile(r"([\w.\[\]-]+): (.+)", re.DOTALL)


@cache
def _patterns() -> tuple[tuple[tuple[str, ...], tuple[str, ...], str], ...]:
    return compile_patterns((str(message._args[0]),) * 2 for message in REFUSALS)


def page_message(message, depth: int = 0, issues=None):
    """``message`` (a service's refusal, as the API words it) in the page's language; with
    ``issues`` (a check's refusal's ``details.issues``), read from them."""
    if not isinstance(message, str) or not message or depth > 2:
        return message
    if issues:
        refused = refused_from_issues(message, issues)
        if refused is not None:
            return refused
    for literals, names, msgid in _patterns():
        found = match(literals, names, message)
        if found is not None:
            params = {name: _parameter(value, depth) for name, value in found.items()}
            return gettext(msgid, **params) if params else gettext(msgid)
    refused = refused_text(message) if depth == 0 else None
    if refused is not None:
        return refused
    prefixed = FIELD_PREFIX.fullmatch(message)
    if prefixed:
        rest = page_message(prefixed.group(2), depth + 1)
        if rest != prefixed.group(2):
            return f"{prefixed.group(1)}: {rest}"
    return label(message)


def _parameter(value: str, depth: int) -> str:
    """A refusal's variable part: a product word, or a refusal quoted in another, translated;
    names, codes and numbers as they are."""
    if " " in value:
        return page_message(value, depth + 1)
    return label(value)


def script_table(locale: str) -> dict:
    """The table for the pages' scripts (which show the API's refusals): each refusal's
    English message with its translation in ``locale``, in the order :func:`page_message`
    tries them, the product words a parameter may be, and the checks' messages (a check's
    refusal of a save quotes them)."""
    with force_locale(locale):
        return {
            "locale": locale.replace("_", "-"),
            "refusals": [[msgid, gettext(msgid)] for _literals, _names, msgid in _patterns()],
            "labels": {word: gettext(word) for word in sorted(KNOWN) if gettext(word) != word},
            "issues": issue_script_table(),
        }
