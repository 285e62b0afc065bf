"""Hand-table cache: served only when current, rebuilt otherwise, written atomically."""

import json

import numpy as np
import pyarrow.parquet as pq
import pytest

from enumerate.rules import Deck, Rules
from enumerate.tables import cache_path, hand_table

DECK = Deck.parse("9TJQKA:cdh+joker")


@pytest.fixture()
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path))
    return tmp_path


def test_second_load_comes_from_cache(cache_dir):
    first = hand_table(DECK)
    second = hand_table(DECK)
    assert not first.from_cache and second.from_cache
    assert np.array_equal(first.cards, second.cards)
    assert np.array_equal(first.orbit_size, second.orbit_size)
    assert first.total == 19 * 18 * 17 * 16 * 15 * 14 * 13 // 5040
    assert not [p for p in cache_dir.iterdir() if p.name.endswith(".tmp")]


def test_other_rules_get_their_own_table(cache_dir):
    a = hand_table(DECK, Rules(wheel="second"))
    b = hand_table(DECK, Rules(wheel="low"))
    assert not b.from_cache
    assert cache_path(DECK, a.rules) != cache_path(DECK, b.rules)


def _rewrite_provenance(path, **changes):
    table = pq.read_table(path)
    meta = dict(table.schema.metadata)
    prov = json.loads(meta[b"paigow"])
    prov.update(changes)
    meta[b"paigow"] = json.dumps(prov).encode()
    pq.write_table(table.replace_schema_metadata(meta), path)


@pytest.mark.parametrize(
    "changes",
    [{"code": "0000000000000000"}, {"rules": '{"wheel": "low"}'}, {"builder": "enumerate.cards"}],
)
def test_stale_cache_is_rebuilt(cache_dir, changes):
    hand_table(DECK)
    path = cache_path(DECK, Rules())
    _rewrite_provenance(path, **changes)
    again = hand_table(DECK)
    assert not again.from_cache
    assert hand_table(DECK).from_cache


def test_damaged_cache_is_rebuilt(cache_dir):
    hand_table(DECK)
    path = cache_path(DECK, Rules())
    path.write_bytes(b"not parquet")
    assert not hand_table(DECK).from_cache
    assert hand_table(DECK).from_cache


