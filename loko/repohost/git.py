"""Git over HTTP(S) through dulwich: no ``git`` binary, no clone kept between runs.

Each call checks the URL (``outbound.check_url``), then talks smart HTTP through
``net.git_pool_manager``: every connection to a checked address, connect 10 s and each read
30 s, the whole call at most ``net.GIT_DEADLINE`` (5 minutes), no redirects, no proxy.
Objects land in a temporary bare repository that is deleted when the call returns.

What a fetch transfers: only the named branches, at depth 1 (their head commits, no
history). Loko asks for a partial fetch (``filter blob:none``, git protocol v2); hosts that
support partial clone (GitHub, GitLab, Gitea, ``git http-backend`` with
``uploadpack.allowFilter``) then send the commit and its trees only, and ``read_files``
fetches the blobs of the wanted paths in a second request; ``commit_files`` needs no blob at
all. A host without partial clone ignores the filter and sends the whole tree of each head,
every blob included; nothing else changes.

dulwich's failures become ``ProviderError`` with ``problem`` "unauthorized", "not_found",
"branch_missing", "no_write_access", "unavailable" or "refused"; a path that cannot be
committed is an ``UnwritablePath``.
"""

import re
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import urllib3
from dulwich.client import HttpGitClient, HTTPProxyUnauthorized, HTTPUnauthorized
from dulwich.errors import GitProtocolError, NotGitRepository, SendPackError
from dulwich.object_store import iter_tree_contents
from dulwich.objects import Blob, Commit, Tree
from dulwich.refs import check_ref_format
from dulwich.repo import Repo

from loko import outbound
from loko.repohost import net
from loko.repohost.providers.base import ProviderError

PARTIAL = b"blob:none"
FILE_MODE = 0o100644
_AUTHOR = re.compile(r"^[^<>\n\0]+ <[^<>\n\0]*>$")
_HTTP_STATUS = re.compile(r"unexpected http resp (\d{3})")


class UnwritablePath(ValueError):
    """A path the commit cannot write: not a path inside a repository, or one that runs into
    a file (or a directory) of the base branch."""


@dataclass(frozen=True)
class RemoteTree:
    commit: str  # hex sha of the branch head
    files: dict[str, bytes]  # path -> content, for the paths ``wanted`` accepted


def read_files(
    url: str,
    credentials: tuple[str, str],
    branch: str,
    wanted: Callable[[str], bool],
    *,
    allow_private: bool,
) -> RemoteTree:
    """The head of ``branch`` and the content of its files whose path ``wanted`` accepts
    (regular files only: no symbolic link, no submodule); ProviderError when the host refuses
    or the branch does not exist."""
    ref = _branch_ref(branch)
    with _remote(url, credentials, allow_private) as (client, repo):
        result = client.fetch(
            "",
            repo,
            determine_wants=_heads_of(url, {branch: ref}),
            depth=1,
            ref_prefix=[ref],
            filter_spec=PARTIAL,
        )
        head = result.refs[ref]
        store = repo.object_store
        selected = {}
        for entry in iter_tree_contents(store, repo[head].tree):
            name = entry.path.decode("utf-8", "surrogateescape")
            if stat.S_ISREG(entry.mode) and wanted(name):
                selected[name] = entry.sha
        missing = sorted({sha for sha in selected.values() if sha not in store})
        if missing:
            client.fetch("", repo, determine_wants=lambda refs, depth=None: missing, ref_prefix=[ref])
        files = {name: store[sha].as_raw_string() for name, sha in selected.items()}
    return RemoteTree(head.decode("ascii"), files)


def commit_files(
    url: str,
    credentials: tuple[str, str],
    base: str,
    branch: str,
    changes: dict[str, bytes | None],
    message: str,
    author: str,
    *,
    allow_private: bool,
) -> str | None:
    """Push to ``branch`` one commit on top of ``base``'s head: its tree with ``changes``
    applied (None deletes a path); the head sha of ``branch``, or None when the changes leave
    the base tree as it is.

    The branch belongs to Loko: it is rebuilt from the base on every call and pushed with
    force. When it already holds exactly this tree on top of this base, it is left alone.
    ProviderError when the host refuses; UnwritablePath for a path that cannot be committed;
    ValueError for an ``author`` that is not ``Name <email>``.
    """
    if not _AUTHOR.match(author):
        raise ValueError(f"the author must read 'Name <email>', not {author!r}")
    for name in changes:
        _path(name)  # before any network call
    base_ref, branch_ref = _branch_ref(base), _branch_ref(branch)
    with _remote(url, credentials, allow_private, pushing=True) as (client, repo):
        result = client.fetch(
            "",
            repo,
            determine_wants=_heads_of(url, {base: base_ref}, optional=(branch_ref,)),
            depth=1,
            ref_prefix=[base_ref, branch_ref],
            filter_spec=PARTIAL,
        )
        base_head = result.refs[base_ref]
        base_tree = repo[base_head].tree
        tree = _apply(repo.object_store, base_tree, changes, base)
        if tree == base_tree:
            return None
        current = result.refs.get(branch_ref)
        if current is not None and current in repo.object_store:
            previous = repo[current]
            if previous.tree == tree and previous.parents == [base_head]:
                return current.decode("ascii")
        commit = _commit(tree, base_head, message, author)
        repo.object_store.add_object(commit)

        def update_refs(refs):
            return {branch_ref: commit.id}

        def generate_pack_data(have, want, ofs_delta=False, progress=None):
            # The host has the base head even if its branch moved meanwhile: the pack holds
            # only the new commit and the trees and blobs that differ from the base.
            return repo.generate_pack_data(set(have) | {base_head}, set(want), ofs_delta=ofs_delta)

        pushed = client.send_pack("", update_refs, generate_pack_data)
        failure = (pushed.ref_status or {}).get(branch_ref)
        if failure:
            raise ProviderError(f"{url} refused the push to {branch}: {failure}", problem="refused")
    return commit.id.decode("ascii")


def branch_exists(url: str, credentials: tuple[str, str], branch: str, allow_private: bool) -> bool:
    """Whether ``branch`` exists on the remote (an ls-remote); ProviderError when the host
    refuses."""
    ref = _branch_ref(branch)
    with _remote(url, credentials, allow_private) as (client, _repo):
        return ref in client.get_refs("", ref_prefix=[ref]).refs


class _GitClient(HttpGitClient):
    @staticmethod
    def _warn_filter_objects() -> None:
        # A host without partial clone sends every blob: expected, documented, not a warning.
        pass


@contextmanager
def _remote(
    url: str, credentials: tuple[str, str], allow_private: bool, pushing: bool = False
) -> Iterator[tuple[HttpGitClient, Repo]]:
    outbound.check_url(url, allow_private)
    username, password = credentials
    pool_manager = net.git_pool_manager(allow_private)
    client = _GitClient(
        url, pool_manager=pool_manager, username=username, password=password, thin_packs=False
    )
    deadline = net.GitDeadline(net.GIT_DEADLINE)
    try:
        with (
            deadline,
            tempfile.TemporaryDirectory(prefix="loko-git-") as directory,
            Repo.init_bare(directory, default_branch=b"main") as repo,
            _provider_errors(url, pushing),
        ):
            yield client, repo
    except ProviderError as error:
        if not deadline.expired:
            raise
        raise ProviderError(
            f"git with {url} was stopped after {deadline.seconds:g} s: the host sends too slowly",
            None,
            "unavailable",
        ) from error
    finally:
        pool_manager.close()


@contextmanager
def _provider_errors(url: str, pushing: bool) -> Iterator[None]:
    try:
        yield
    except ProviderError:
        raise
    except (HTTPUnauthorized, HTTPProxyUnauthorized) as error:
        raise ProviderError(f"{url} did not accept the credentials", 401, "unauthorized") from error
    except NotGitRepository as error:
        raise ProviderError(f"there is no git repository at {url}", 404, "not_found") from error
    except SendPackError as error:
        raise ProviderError(f"{url} refused the push: {error}", None, "refused") from error
    except GitProtocolError as error:
        match = _HTTP_STATUS.search(str(error))
        status = int(match[1]) if match else None
        if status == 403:
            problem = "no_write_access" if pushing else "unauthorized"
            raise ProviderError(f"{url} answered 403: the token may not do this", 403, problem) from error
        if status is not None and 300 <= status < 400:
            raise ProviderError(
                f"{url} redirects elsewhere (HTTP {status}); use the repository's own URL", status, "refused"
            ) from error
        if status is not None and status < 500:
            raise ProviderError(f"{url} answered HTTP {status}", status, "refused") from error
        raise ProviderError(f"git over HTTP with {url} failed: {error}", status, "unavailable") from error
    except (urllib3.exceptions.HTTPError, OSError) as error:
        raise ProviderError(f"{url} cannot be reached: {error}", None, "unavailable") from error


def _heads_of(url: str, required: dict[str, bytes], optional: tuple[bytes, ...] = ()):
    """A ``determine_wants`` for the heads of the ``required`` branches (ProviderError
    "branch_missing" when one is absent) and of the ``optional`` refs that exist."""

    def determine_wants(refs, depth=None):
        for branch, ref in required.items():
            if ref not in refs:
                raise ProviderError(f"{url} has no branch {branch}", None, "branch_missing")
        wanted = [refs[ref] for ref in required.values()] + [refs[ref] for ref in optional if ref in refs]
        return list(dict.fromkeys(wanted))

    return determine_wants


def _branch_ref(branch: str) -> bytes:
    ref = b"refs/heads/" + branch.encode("utf-8")
    if branch.startswith("-") or not check_ref_format(ref):
        raise ValueError(f"not a branch name: {branch!r}")
    return ref


def _apply(store, base_tree: bytes, changes: dict[str, bytes | None], base: str) -> bytes:
    """The id of ``base_tree`` with ``changes`` applied, storing the new trees and blobs."""
    existing = {entry.path: entry for entry in iter_tree_contents(store, base_tree)}
    directories = {parent for path in existing for parent in _parents(path)}
    added = {_path(name) for name, content in changes.items() if content is not None}
    edits: dict[bytes, tuple[int, bytes] | None] = {}
    for name, content in changes.items():
        path = _path(name)
        old = existing.get(path)
        if content is None:
            if old is not None:
                edits[path] = None
            continue
        if path in directories:
            raise UnwritablePath(f"{name} is a directory on {base}")
        parent = next((p for p in _parents(path) if p in existing or p in added), None)
        if parent is not None:
            where = f" on {base}" if parent in existing else ""
            raise UnwritablePath(f"{name}: {parent.decode(errors='replace')} is a file{where}")
        blob = Blob.from_string(content)
        if old is not None and old.sha == blob.id and stat.S_ISREG(old.mode):
            continue
        store.add_object(blob)
        mode = old.mode if old is not None and stat.S_ISREG(old.mode) else FILE_MODE
        edits[path] = (mode, blob.id)
    if not edits:
        return base_tree
    return _rewrite(store, base_tree, edits).id


def _rewrite(store, tree_id: bytes | None, edits: dict[bytes, tuple[int, bytes] | None]) -> Tree:
    """A copy of the tree ``tree_id`` (None: empty) with ``edits`` (relative paths) applied;
    the stored trees themselves are never modified."""
    tree = Tree()
    if tree_id is not None:
        for item in store[tree_id].iteritems():
            tree.add(item.path, item.mode, item.sha)
    nested: dict[bytes, dict[bytes, tuple[int, bytes] | None]] = {}
    for path, edit in edits.items():
        name, slash, rest = path.partition(b"/")
        if slash:
            nested.setdefault(name, {})[rest] = edit
        elif edit is None:
            del tree[name]
        else:
            tree.add(name, *edit)
    for name, subedits in nested.items():
        subtree_id = tree[name][1] if name in tree else None
        subtree = _rewrite(store, subtree_id, subedits)
        if len(subtree) == 0:
            if name in tree:
                del tree[name]
        else:
            tree.add(name, stat.S_IFDIR, subtree.id)
    store.add_object(tree)
    return tree


def _path(name: str) -> bytes:
    parts = name.split("/")
    if "\0" in name or any(part in ("", ".", "..") or part.lower() == ".git" for part in parts):
        raise UnwritablePath(f"not a path inside a repository: {name!r}")
    return name.encode("utf-8", "surrogateescape")


def _parents(path: bytes) -> Iterator[bytes]:
    position = path.find(b"/")
    while position != -1:
        yield path[:position]
        position = path.find(b"/", position + 1)


def _commit(tree: bytes, parent: bytes, message: str, author: str) -> Commit:
    commit = Commit()
    commit.tree = tree
    commit.parents = [parent]
    commit.author = commit.committer = author.encode("utf-8")
    commit.author_time = commit.commit_time = int(time.time())
    commit.author_timezone = commit.commit_timezone = 0
    commit.encoding = b"UTF-8"
    commit.message = (message.rstrip("\n") + "\n").encode("utf-8")
    return commit
