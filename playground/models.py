"""Sample inventories, gallery examples and shared snapshots.

Interface (stable; ``api/`` imports it):

``SampleInventory``
    slug, title, description, provenance, license, kubernetes_version,
    tags (list of feature tags), objects_yaml (the objects as multi-document
    YAML), position (order in pickers), starter (slug of the example whose
    documents the editor opens with on this inventory).
    ``inventory.as_yaml() -> str`` the objects as YAML text.
    ``inventory.state_fields() -> dict`` how a state names it: the text, or
    (a sample cluster, ``cluster`` set) the stored snapshot's id.
    ``inventory.starter_documents() -> str | None`` that example's documents.
    ``SampleInventory.objects.listed()`` in picker order.
    ``SampleInventory.objects.default()`` the inventory the editor starts with (or None).
    ``SampleInventory.objects.update_or_create_from_sample(data, position)`` (load_samples).

``Example``
    slug, title, description, inventory (FK to SampleInventory), documents,
    node ("" = automatic), feature_gates (dict of overrides), kubernetes_version,
    tags, expected (the expected outcome, as in the sample file's ``expect``),
    compare (null, or the compared column's settings: a comparison example),
    alternatives (how many other grants the example opens with listed), position.
    ``example.state() -> playground.state.State`` ready for the engine.
    ``Example.objects.with_inventory()`` examples with their inventory joined, in gallery order.
    ``Example.objects.default()`` the example the editor opens with (or None).
    ``Example.objects.tagged(tag)``, ``Example.objects.all_tags() -> list[str]``.
    ``Example.objects.update_or_create_from_sample(data, position)`` (load_samples).

``Share``
    An immutable snapshot of a ``State``: id (derived from a hash of the
    content, so sharing the same state twice gives the same id), inventory
    (the YAML itself, not a reference), documents, node, kubernetes_version,
    feature_gates, inventory_slug (where the inventory came from, for
    display), compare (the compared column's settings, or null), created.
    ``Share.objects.get_or_create_for(state: State | dict[str, Any]) -> (share, created)``;
    a dict is checked with ``State.from_dict`` and may raise ``StateError``.
    ``share.state() -> State``; ``share.get_absolute_url() -> "/s/<id>"``.
    A share of a stored cluster holds its id (``inventory_id``), not its text.

``StoredInventory``
    A cluster snapshot: id (a base62 prefix of the SHA-256 of its normalised
    text), digest, text, size, the engine's counts (nodes, devices, drivers,
    pools, device_classes, resource_slices, claims), client (a keyed hash of
    the address that stored it), created. Immutable: ``save()`` of an
    existing row raises. ``StoredInventory.objects.create_unique(digest, **fields)``,
    ``.with_digest(hex)``, ``.usage_since(client, when)``. The rules
    (limits, quota, validation) are ``playground.clusters``'.
"""

from __future__ import annotations

import datetime
from dataclasses import fields as dataclass_fields
from typing import Any

import yaml
from django.db import IntegrityError, models, transaction
from django.urls import reverse

from allocator.releases.gates import CURRENT_RELEASE, RELEASES
from playground.state import ID_LENGTH, ID_MAX_LENGTH, Inputs, State, base62

SafeDumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

VERSION_CHOICES = [(r, r) for r in RELEASES]
DEFAULT_INVENTORY = "gpu-node"
DEFAULT_EXAMPLE = "per-container-requests"


class SampleInventoryQuerySet(models.QuerySet["SampleInventory"]):
    def listed(self) -> SampleInventoryQuerySet:
        return self.order_by("position", "title")

    def picker(self) -> SampleInventoryQuerySet:
        """The samples as the editor's picker lists them, without their objects (a few hundred KB in all):
        every page and live update lists them, and only loading one reads its objects."""
        return self.listed().defer("objects_yaml")

    def default(self) -> SampleInventory | None:
        return self.filter(slug=DEFAULT_INVENTORY).first() or self.listed().first()

    def update_or_create_from_sample(self, data: dict[str, Any], position: int = 0) -> tuple[SampleInventory, bool]:
        """Store one ``playground/samples/inventories/*.yaml`` file (already parsed)."""
        return self.update_or_create(
            slug=data["slug"],
            defaults={
                "title": data["title"],
                "description": data.get("description", ""),
                "provenance": data.get("provenance", ""),
                "license": data.get("license", ""),
                "kubernetes_version": str(data.get("kubernetesVersion") or CURRENT_RELEASE),
                "tags": list(data.get("features") or []),
                "starter": data.get("starter") or "",
                "objects_yaml": yaml.dump_all(data["objects"], Dumper=SafeDumper, sort_keys=False),
                "position": position,
            },
        )


class SampleInventory(models.Model):
    slug = models.SlugField(max_length=100, unique=True)
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    provenance = models.TextField(blank=True, help_text="Where the objects come from (repository, file, commit).")
    license = models.CharField(max_length=100, blank=True)
    kubernetes_version = models.CharField(max_length=8, choices=VERSION_CHOICES, default=CURRENT_RELEASE)
    tags = models.JSONField(default=list, blank=True, help_text="Feature tags, e.g. [\"partitionable\"].")
    objects_yaml = models.TextField(
        "objects (YAML)", help_text="Nodes, DeviceClasses and ResourceSlices as multi-document YAML."
    )
    position = models.PositiveIntegerField(default=0, help_text="Order in the inventory picker.")
    # A sample too large to send with every edit (``load_sample_clusters``): its
    # objects are a stored snapshot, named by id; objects_yaml is then empty.
    cluster = models.ForeignKey("StoredInventory", null=True, blank=True, on_delete=models.PROTECT,
                                related_name="samples", help_text="The stored snapshot holding the objects.")
    starter = models.SlugField(
        max_length=100, blank=True,
        help_text="Slug of the example whose documents the editor opens with when this inventory is picked.",
    )
    updated = models.DateTimeField(auto_now=True)

    objects = SampleInventoryQuerySet.as_manager()

    class Meta:
        ordering = ["position", "title"]
        verbose_name_plural = "sample inventories"

    def __str__(self) -> str:
        return self.title

    def as_yaml(self) -> str:
        # (no query for the snapshot when there is none: a null key reads as None)
        return self.cluster.text if self.cluster is not None else self.objects_yaml

    def state_fields(self) -> dict[str, Any]:
        """How a state refers to this inventory: its objects as text, or its stored snapshot's id."""
        if self.cluster_id:
            return {"inventory": "", "inventoryId": self.cluster_id, "inventorySlug": self.slug}
        return {"inventory": self.objects_yaml, "inventorySlug": self.slug}

    def starter_documents(self) -> str | None:
        """The claims the editor opens with on this inventory (its starter example's), or None."""
        example = Example.objects.filter(slug=self.starter).first() if self.starter else None
        return example.documents if example else None


class ExampleQuerySet(models.QuerySet["Example"]):
    def with_inventory(self) -> ExampleQuerySet:
        return self.select_related("inventory").order_by("position", "title")

    def default(self) -> Example | None:
        """The example the editor opens with: a pod whose containers each get a GPU."""
        examples = self.with_inventory()
        return (
            examples.filter(slug=DEFAULT_EXAMPLE).first()
            or examples.filter(inventory__slug=DEFAULT_INVENTORY).first()
            or examples.first()
        )

    def tagged(self, tag: str) -> ExampleQuerySet:
        # Tags are a JSON list; SQLite has no JSON containment lookup, and the
        # gallery is small, so filter in Python and return a queryset.
        return self.filter(pk__in=[pk for pk, tags in self.values_list("pk", "tags") if tag in (tags or [])])

    def all_tags(self) -> list[str]:
        return sorted({tag for tags in self.values_list("tags", flat=True) for tag in (tags or [])})

    def update_or_create_from_sample(self, data: dict[str, Any], position: int = 0) -> tuple[Example, bool]:
        """Store one ``playground/samples/examples/*.yaml`` file; its inventory must be loaded."""
        return self.update_or_create(
            slug=data["slug"],
            defaults={
                "title": data["title"],
                "description": data.get("description", ""),
                "inventory": SampleInventory.objects.get(slug=data["inventory"]),
                "documents": data["documents"],
                "node": data.get("node") or "",
                "feature_gates": dict(data.get("featureGates") or {}),
                "kubernetes_version": str(data.get("kubernetesVersion") or CURRENT_RELEASE),
                "tags": list(data.get("features") or []),
                "expected": dict(data.get("expect") or {}),
                "compare": dict(data["compare"]) if data.get("compare") else None,
                "alternatives": int(data.get("alternatives") or 0),
                "position": position,
            },
        )


class Example(models.Model):
    slug = models.SlugField(max_length=100, unique=True)
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    inventory = models.ForeignKey(SampleInventory, on_delete=models.PROTECT, related_name="examples")
    documents = models.TextField(help_text="ResourceClaims, templates and Pods as multi-document YAML.")
    node = models.CharField(max_length=253, blank=True, help_text="Empty: try every node.")
    feature_gates = models.JSONField(default=dict, blank=True, help_text="Overrides, e.g. {\"DRADeviceTaints\": false}.")
    kubernetes_version = models.CharField(max_length=8, choices=VERSION_CHOICES, default=CURRENT_RELEASE)
    tags = models.JSONField(default=list, blank=True)
    expected = models.JSONField(default=dict, blank=True, help_text="The expected outcome (the sample's expect).")
    # A comparison example: the compared column's kubernetesVersion, featureGates, node and inventory (a slug;
    # absent: the example's own), as the sample file's ``compare`` gives them; null for a plain example.
    compare = models.JSONField(null=True, blank=True)
    # How many of the other grants the example opens with listed (0: none).
    alternatives = models.PositiveSmallIntegerField(default=0)
    position = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    objects = ExampleQuerySet.as_manager()

    class Meta:
        ordering = ["position", "title"]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("example", args=[self.slug])

    def state(self) -> State:
        return State.from_dict(
            {
                **self.inventory.state_fields(),
                "documents": self.documents,
                "node": self.node,
                "kubernetesVersion": self.kubernetes_version,
                "featureGates": self.feature_gates,
                "compare": self.compare_side(),
            }
        )

    def compare_side(self) -> dict[str, Any] | None:
        """The compared column for ``State.from_dict``, its inventory slug resolved to the objects."""
        if not self.compare:
            return None
        slug = self.compare.get("inventory") or self.inventory.slug
        inventory = self.inventory if slug == self.inventory.slug else SampleInventory.objects.get(slug=slug)
        return {"kubernetesVersion": self.compare.get("kubernetesVersion") or self.kubernetes_version,
                "featureGates": self.compare.get("featureGates") or {}, "node": self.compare.get("node") or "",
                **inventory.state_fields()}


class ShareQuerySet(models.QuerySet["Share"]):
    def get_or_create_for(self, state: State | dict[str, Any]) -> tuple[Share, bool]:
        """The share of this exact state, created if new. Raises StateError for a bad dict."""
        if not isinstance(state, State):
            state = State.from_dict(state)
        # A column per input, and one per panel holding its export form (null: none, or at the defaults).
        fields = {**{f.name: getattr(state.inputs, f.name) for f in dataclass_fields(Inputs)}, **state.panel_dicts()}
        # Lengthen the id in the (astronomically unlikely) case of a prefix collision.
        for length in range(ID_LENGTH, ID_MAX_LENGTH + 1):
            share_id = state.content_id(length)
            existing = self.filter(pk=share_id).first()
            if existing is None:
                try:
                    with transaction.atomic():
                        return self.create(id=share_id, **fields), True
                except IntegrityError:  # created concurrently
                    existing = self.get(pk=share_id)
            if existing.state() == state:
                return existing, False
        raise RuntimeError("share id collision at every length")


class Share(models.Model):
    id = models.CharField(primary_key=True, max_length=ID_MAX_LENGTH, editable=False)
    inventory = models.TextField(blank=True)
    documents = models.TextField(blank=True)
    node = models.CharField(max_length=253, blank=True)
    kubernetes_version = models.CharField(max_length=8, choices=VERSION_CHOICES, default=CURRENT_RELEASE)
    feature_gates = models.JSONField(default=dict, blank=True)
    inventory_slug = models.CharField(max_length=100, blank=True)
    inventory_id = models.CharField(max_length=ID_MAX_LENGTH, blank=True,
                                    help_text="The stored inventory the state refers to, instead of inventory text.")
    # A column per panel of the state besides the inputs (playground.state.PANELS), holding its to_dict():
    # the compared column's settings, or null; the "How many fit?" panel's {max, strategy}, or null for the
    # defaults; the expression console's {expression, device, env}, or null when untouched.
    compare = models.JSONField(null=True, blank=True)
    capacity = models.JSONField(null=True, blank=True)
    console = models.JSONField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    objects = ShareQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.id

    def get_absolute_url(self) -> str:
        return reverse("share", args=[self.id])

    def state(self) -> State:
        return State.stored(self)


class StoredInventoryQuerySet(models.QuerySet["StoredInventory"]):
    def with_digest(self, digest: str) -> StoredInventory | None:
        return self.filter(digest=digest).first()

    def usage_since(self, client: str, since: datetime.datetime) -> tuple[int, int]:
        """(snapshots, bytes) stored by this client since then: what the per-day quotas count."""
        totals = self.filter(client=client, created__gte=since).aggregate(n=models.Count("pk"), size=models.Sum("size"))
        return totals["n"] or 0, totals["size"] or 0

    def create_unique(self, digest: bytes, **fields: Any) -> tuple[StoredInventory, bool]:  # Any: the model's fields
        """The snapshot with this content digest, created if new (ids as shares get theirs: a base62 prefix)."""
        hex_digest = digest.hex()
        existing = self.with_digest(hex_digest)
        if existing is not None:
            return existing, False
        encoded = base62(digest)
        for length in range(ID_LENGTH, ID_MAX_LENGTH + 1):
            if self.filter(pk=encoded[:length]).exists():
                continue  # a prefix collision with other content: lengthen
            try:
                with transaction.atomic():
                    return self.create(id=encoded[:length], digest=hex_digest, **fields), True
            except IntegrityError:  # the same content stored concurrently (or the id taken meanwhile)
                existing = self.with_digest(hex_digest)
                if existing is not None:
                    return existing, False
        raise RuntimeError("stored inventory id collision at every length")


class StoredInventory(models.Model):
    """A cluster snapshot someone stored (``playground.clusters``): immutable, addressed by its content.

    ``text`` is the objects as sent; the counts are the engine's summary
    (``allocator.clusters``), kept so lists and pages need not read the text.
    ``client`` is a keyed hash of the address that stored it, for the quota.
    """

    id = models.CharField(primary_key=True, max_length=ID_MAX_LENGTH, editable=False)
    digest = models.CharField(max_length=64, unique=True, editable=False,
                              help_text="SHA-256 of the normalised text (hex).")
    text = models.TextField(editable=False)
    size = models.PositiveBigIntegerField(editable=False, help_text="Bytes of UTF-8 text.")
    nodes = models.PositiveIntegerField(default=0, editable=False)
    devices = models.PositiveIntegerField(default=0, editable=False)
    drivers = models.JSONField(default=list, editable=False)
    pools = models.PositiveIntegerField(default=0, editable=False)
    device_classes = models.PositiveIntegerField(default=0, editable=False)
    resource_slices = models.PositiveIntegerField(default=0, editable=False)
    claims = models.PositiveIntegerField(default=0, editable=False)
    client = models.CharField(max_length=64, blank=True, editable=False, db_index=True)
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    objects = StoredInventoryQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]
        verbose_name_plural = "stored inventories"

    def __str__(self) -> str:
        return f"{self.id} ({self.nodes} nodes, {self.devices} devices)"

    def save(self, *args: Any, **kwargs: Any) -> None:  # Model.save's arguments, passed on
        if not self._state.adding:
            raise ValueError("stored inventories are immutable")
        super().save(*args, **kwargs)

    def summary(self) -> dict[str, Any]:
        return {
            "nodes": self.nodes, "devices": self.devices, "drivers": list(self.drivers), "pools": self.pools,
            "deviceClasses": self.device_classes, "resourceSlices": self.resource_slices, "claims": self.claims,
            "bytes": self.size,
        }
