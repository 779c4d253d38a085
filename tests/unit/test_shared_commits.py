"""Group commits told across a server's processes: rows kept at a state stay valid through
transactions other processes recorded, and through nothing else."""

import itertools
import struct

from loko.database import KeptRows, SharedCommits
from loko.database.sqlite import shared_commits as module


def states(count):
    return [bytes([n]) * 48 for n in range(count)]


def test_a_chain_of_recorded_transactions_leads_from_one_state_to_another(tmp_path):
    s0, s1, s2 = states(3)
    commits = SharedCommits(str(tmp_path / "db.sqlite"))
    commits.record(s0, s1)
    commits.record(s1, s2)
    assert commits.leads(s0, s2)
    assert commits.leads(s1, s2)
    assert not commits.leads(s2, s0)


def test_a_transaction_not_recorded_breaks_the_chain(tmp_path):
    s0, s1, s2, s3 = states(4)
    commits = SharedCommits(str(tmp_path / "db.sqlite"))
    commits.record(s0, s1)
    commits.record(s2, s3)  # s1 -> s2 was another kind of write
    assert not commits.leads(s0, s3)


def test_another_process_s_records_are_seen(tmp_path):
    s0, s1, s2 = states(3)
    mine, theirs = SharedCommits(str(tmp_path / "db.sqlite")), SharedCommits(str(tmp_path / "db.sqlite"))
    assert not mine.leads(s0, s2)
    theirs.record(s0, s1)
    mine.record(s1, s2)
    assert mine.leads(s0, s2)
    assert theirs.leads(s0, s2)


def test_an_entry_that_fails_its_checksum_is_not_followed(tmp_path):
    s0, s1 = states(2)
    commits = SharedCommits(str(tmp_path / "db.sqlite"))
    commits.record(s0, s1)
    ring = commits._mapped()
    ring[module.COUNT_BYTES] ^= 0xFF  # the first slot's first byte
    reader = SharedCommits(str(tmp_path / "db.sqlite"))
    assert not reader.leads(s0, s1)


def test_only_the_latest_transactions_are_kept(tmp_path):
    chain = states(module.SLOTS + 2)
    commits = SharedCommits(str(tmp_path / "db.sqlite"))
    for before, after in itertools.pairwise(chain):
        commits.record(before, after)
    assert struct.unpack_from("=Q", commits._mapped(), 0)[0] == module.SLOTS + 1
    assert not commits.leads(chain[0], chain[-1])
    assert commits.leads(chain[2], chain[-1])


def test_rows_kept_at_a_state_survive_recorded_transactions_only(tmp_path):
    s0, s1, _s2, s3 = states(4)
    commits = SharedCommits(str(tmp_path / "db.sqlite"))
    kept = KeptRows(seconds=60, commits=commits)
    kept.keep("key", s0, "actor")
    commits.record(s0, s1)
    assert kept.get("key", s1) == "actor"
    assert kept.get("key", s3) is None  # s1 -> s3: not recorded


def test_rows_kept_without_shared_commits_go_at_another_process_s_transaction(tmp_path):
    s0, s1 = states(2)
    SharedCommits(str(tmp_path / "db.sqlite")).record(s0, s1)
    kept = KeptRows(seconds=60)
    kept.keep("key", s0, "actor")
    assert kept.get("key", s1) is None
