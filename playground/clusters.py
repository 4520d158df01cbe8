"""Stored cluster snapshots: the site's rules around the engine's reading of them.

A person with a real cluster sends its objects once (``POST
/api/v1/inventories`` or the page's *Use my cluster*) and then refers to them
by id, so live edits carry only the claims. This module is the one place both
go through:

``store(text, address) -> (StoredInventory, created)``
    Refuses (``ClusterRefused``, with the HTTP status and the setting that
    decides) text over ``STORED_INVENTORY_MAX_BYTES`` (413), a new snapshot
    over the address's quota of the last 24 hours,
    ``STORED_INVENTORIES_PER_DAY`` or ``STORED_INVENTORY_BYTES_PER_DAY``
    (429), and objects the engine cannot read or finds invalid (400, with the
    located diagnostics). Content stored before comes back as it is
    (``created`` False), whoever sent it, without counting.
``inventory_text(id)``, ``find(id)``
    A snapshot's text (kept in a bounded in-process cache: snapshots never
    change) or None.
``check_state(state)``
    Raises ``UnknownInventory`` (a ``StateError``) for an id that names no snapshot.
``analyze_state(state)``
    ``allocator.engine.analyze`` on a ``State`` whose inventory may be such
    an id (``playground.services.analyze`` is the analyze service; this name
    stays while ``playground.results`` calls it).
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import threading
from collections import OrderedDict
from collections.abc import Iterable

from django.conf import settings
from django.utils import timezone

from allocator.engine import Reading, Report, analyze
from allocator.reading.diagnostics import Diagnostic
from allocator.validation.clusters import content_digest as engine_digest
from allocator.validation.clusters import inspect_cluster, normalise
from playground.limits import engine_limits
from playground.models import StoredInventory
from playground.state import STORED_ID, State, StateError

QUOTA_WINDOW = datetime.timedelta(days=1)


class ClusterRefused(Exception):
    """A snapshot the site will not store; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, detail: str, setting: str = "",
                 diagnostics: list[Diagnostic] | None = None, retry_after: int | None = None):
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.setting = setting
        self.diagnostics = diagnostics or []
        self.retry_after = retry_after


class UnknownInventory(StateError):
    """An inventory id that names no stored snapshot."""


def client_key(address: str) -> str:
    """What the quota counts by: a keyed hash, so the table holds no addresses."""
    return hmac.new(settings.SECRET_KEY.encode(), address.encode(), hashlib.sha256).hexdigest()[:32]


def _check_size(size: int) -> None:
    limit = settings.STORED_INVENTORY_MAX_BYTES
    if size > limit:
        raise ClusterRefused(413, f"The inventory is too large to store: {size} bytes, the limit is {limit} bytes "
                                  "(the site's STORED_INVENTORY_MAX_BYTES setting).", "STORED_INVENTORY_MAX_BYTES")


def _check_quota(client: str, size: int) -> None:
    count_limit = settings.STORED_INVENTORIES_PER_DAY
    bytes_limit = settings.STORED_INVENTORY_BYTES_PER_DAY
    if not count_limit and not bytes_limit:
        return
    now = timezone.now()
    count, used = StoredInventory.objects.usage_since(client, now - QUOTA_WINDOW)
    if count_limit and count + 1 > count_limit:
        detail = (f"This address has stored {count} new inventories in the last 24 hours; the limit is {count_limit} "
                  "(the site's STORED_INVENTORIES_PER_DAY setting).")
        raise ClusterRefused(429, detail, "STORED_INVENTORIES_PER_DAY", retry_after=_retry_after(client, now))
    if bytes_limit and used + size > bytes_limit:
        detail = (f"This address has stored {used} bytes of new inventories in the last 24 hours; {size} more "
                  f"would pass the limit of {bytes_limit} (the site's STORED_INVENTORY_BYTES_PER_DAY setting).")
        raise ClusterRefused(429, detail, "STORED_INVENTORY_BYTES_PER_DAY", retry_after=_retry_after(client, now))


def _retry_after(client: str, now: datetime.datetime) -> int:
    """Seconds until the oldest snapshot of the window leaves it (a lower bound on when one more fits)."""
    oldest = (StoredInventory.objects.filter(client=client, created__gte=now - QUOTA_WINDOW)
              .order_by("created").values_list("created", flat=True).first())
    if oldest is None:
        return 1
    return max(1, int((oldest + QUOTA_WINDOW - now).total_seconds()) + 1)


def store(text: str, address: str, quota: bool = True) -> tuple[StoredInventory, bool]:
    """Store a snapshot (or find it stored before); raises ``ClusterRefused``.

    ``quota=False`` is for the site's own commands (sample clusters), not for visitors.
    """
    # What is stored is what the id addresses, ending with one newline like any text file.
    text = normalise(text) + "\n" if normalise(text) else ""
    size = len(text.encode("utf-8", "surrogatepass"))
    _check_size(size)
    digest = engine_digest(text)
    existing = StoredInventory.objects.with_digest(digest.hex())
    if existing is not None:
        return existing, False
    if not text:
        raise ClusterRefused(400, "The inventory is empty: send the objects (Nodes, DeviceClasses, ResourceSlices).")
    client = client_key(address)
    if quota:
        _check_quota(client, size)
    inspection = inspect_cluster(text, limits=engine_limits(stored=True))
    if inspection.errors:
        count = len(inspection.errors)
        raise ClusterRefused(400, f"The inventory is not valid: {count} error{'s' if count != 1 else ''}.",
                             diagnostics=inspection.errors)
    summary = inspection.summary
    return StoredInventory.objects.create_unique(
        digest, text=text, size=size, nodes=summary.nodes, devices=summary.devices, drivers=list(summary.drivers),
        pools=summary.pools, device_classes=summary.device_classes, resource_slices=summary.resource_slices,
        claims=summary.claims, client=client,
    )


def find(inventory_id: str) -> StoredInventory | None:
    if not isinstance(inventory_id, str) or not STORED_ID.fullmatch(inventory_id):
        return None  # not an id (NUL bytes above all never reach the database)
    return StoredInventory.objects.filter(pk=inventory_id).defer("text").first()


class _TextCache:
    """Texts of snapshots by id, least recently used first out, bounded in characters."""

    def __init__(self, chars: int = 64 * 1024 * 1024):
        self.chars = chars
        self._items: OrderedDict[str, str] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, key: str) -> str | None:
        with self._lock:
            text = self._items.get(key)
            if text is not None:
                self._items.move_to_end(key)
            return text

    def put(self, key: str, text: str) -> None:
        if len(text) > self.chars:
            return
        with self._lock:
            if key in self._items:
                return
            self._items[key] = text
            self._size += len(text)
            while self._size > self.chars:
                _, old = self._items.popitem(last=False)
                self._size -= len(old)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._size = 0


_texts = _TextCache()


def inventory_text(inventory_id: str) -> str:
    """The snapshot's text; raises ``UnknownInventory`` for an id that names none."""
    text = _texts.get(inventory_id)
    if text is None:
        row = (StoredInventory.objects.filter(pk=inventory_id).values_list("text", flat=True).first()
               if STORED_ID.fullmatch(inventory_id or "") else None)
        if row is None:
            raise UnknownInventory(f"No stored inventory has the id {inventory_id!r}.")
        text = row
        _texts.put(inventory_id, text)
    return text


def check_state(state: State) -> None:
    """Raises ``UnknownInventory`` when the state (or its compared column) names a stored inventory that does
    not exist."""
    ids = [state.inventory_id, state.compare.inventory_id if state.compare else ""]
    missing = next((i for i in ids if i and find(i) is None), None)
    if missing:
        raise UnknownInventory(f"No stored inventory has the id {missing!r}: store the cluster again "
                               "(Use my cluster).")


def state_inventory(state: State) -> str:
    """The inventory text the engine reads for this state."""
    return inventory_text(state.inventory_id) if state.inventory_id else state.inventory


def analyze_state(state: State, alternatives: int = 0, readings: Iterable[Reading] = ()) -> Report:
    """``analyze`` for a state, its stored inventory read; ``alternatives`` and ``readings`` as ``analyze``'s."""
    kwargs = state.analyze_kwargs()
    kwargs["inventory"] = state_inventory(state)
    return analyze(**kwargs, alternatives=alternatives, readings=readings)
