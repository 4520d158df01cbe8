"""Share links made before a change keep working after it.

``data/shares.json`` was recorded with the code of the time: for each state given to
``Share.objects.get_or_create_for`` (``payload``), the id it got, the row stored (``row``: every column
but ``id`` and ``created``) and the state that row loads as (``state``, in the export form). Long texts
are kept once, in ``texts``, and named in the records as ``$text:NAME``.

The ids must not move (a link is a promise), a row stored back then must load as the same state, and its
page and API answer must still open.
"""

import json
from pathlib import Path

from django.test import TestCase

from playground.models import Share, StoredInventory
from playground.state import State

RECORDED = json.loads((Path(__file__).parent / "data" / "shares.json").read_text(encoding="utf-8"))
TEXT = "$text:"


def _expand(value):
    if isinstance(value, dict):
        return {key: _expand(item) for key, item in value.items()}
    if isinstance(value, str) and value.startswith(TEXT):
        return RECORDED["texts"][value[len(TEXT):]]
    return value


SHARES = [_expand(record) for record in RECORDED["shares"]]
STORED_IDS = {state.get("inventoryId") for record in SHARES
              for state in (record["state"], record["state"].get("compare") or {})} - {None}


class RecordedIdsTestCase(TestCase):
    def test_the_same_states_get_the_same_ids(self):
        for record in SHARES:
            with self.subTest(record["name"]):
                self.assertEqual(State.from_dict(record["payload"]).content_id(), record["id"])

    def test_sharing_them_again_stores_the_same_rows(self):
        for record in SHARES:
            with self.subTest(record["name"]):
                share, _ = Share.objects.get_or_create_for(record["payload"])
                self.assertEqual(share.id, record["id"])
                row = {name: getattr(share, name) for name in record["row"]}
                self.assertEqual(row, record["row"])
                self.assertEqual(share.state().to_dict(), record["state"])


class RecordedRowsTestCase(TestCase):
    """Rows as the database holds them since they were shared."""

    @classmethod
    def setUpTestData(cls):
        # The stored clusters the recorded states name (their ids were made up when recording).
        for number, inventory_id in enumerate(sorted(STORED_IDS)):
            text = RECORDED["texts"]["small"]
            StoredInventory.objects.create(id=inventory_id, digest=f"{number:064x}", text=text, size=len(text))
        for record in SHARES:
            Share.objects.update_or_create(id=record["id"], defaults=record["row"])

    def test_they_load_as_the_same_states(self):
        for record in SHARES:
            with self.subTest(record["name"]):
                state = Share.objects.get(pk=record["id"]).state()
                self.assertEqual(state.to_dict(), record["state"])
                self.assertEqual(state, State.from_dict(record["payload"]))
                self.assertEqual(state.content_id(), record["id"])

    def test_sharing_a_loaded_state_finds_its_row(self):
        for record in SHARES:
            with self.subTest(record["name"]):
                share, created = Share.objects.get_or_create_for(Share.objects.get(pk=record["id"]).state())
                self.assertEqual((share.id, created), (record["id"], False))

    def test_their_links_still_open(self):
        for record in SHARES:
            with self.subTest(record["name"]):
                r = self.client.get(f"/s/{record['id']}")
                self.assertEqual(r.status_code, 200)
                self.assertContains(r, 'id="share-banner"')

    def test_the_api_still_returns_them(self):
        for record in SHARES:
            with self.subTest(record["name"]):
                body = self.client.get(f"/api/v1/shares/{record['id']}").json()
                del body["created"]
                self.assertEqual(body, {"id": record["id"], "url": f"http://testserver/s/{record['id']}",
                                        **record["state"]})
