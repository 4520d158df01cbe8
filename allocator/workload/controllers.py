"""Workloads with a count: the controllers that make pods, read as "this pod, so many times".

A user asks "how many fit" of a Deployment as naturally as of a Pod. The
objects that say how many pods run are read where a user writes them:

* Deployment, ReplicaSet, StatefulSet (``apps/v1``): ``spec.replicas`` (1 when unset);
* Job (``batch/v1``): ``spec.parallelism`` (1 when unset), at most ``spec.completions`` when that
  is set, and none while ``spec.suspend`` is true: the pods the Job controller starts at once;
* a Pod on its own counts 1.

Each controller's pod is its ``spec.template.spec``, read and checked as a Pod
(errors are reported at the template's fields). Its copies are named as the
controllers name their pods: ``<statefulset>-<ordinal>``; ``<replicaset>-<5 chars>``;
``<deployment>-<pod-template-hash>-<5 chars>``; ``<job>-<5 chars>`` or, for an
Indexed Job, ``<job>-<index>-<5 chars>``. The apiserver picks the five characters
at random and the Deployment controller hashes the template as Go prints it;
here both are derived from the names, so the same input gives the same names.

``allocator.kube.objects`` lists these kinds as ignored; capacity planning reads them here, and the
analysis of one pod (the page, ``allocate``) reads the first copy of each (``workload.analysed``).
"""

from __future__ import annotations

from allocator.kube import model
from allocator.kube.objects import Document, ReadResult, _flatten, _read_one
from allocator.reading.diagnostics import INVALID, PARSE, REQUIRED, Diagnostic, DiagnosticError
from allocator.reading.limits import DEFAULT, Limits
from allocator.reading.positions import PosDict, position_in
from allocator.reading.records import record, replace
from allocator.validation import validate_documents

# Kind -> the apiVersion it is served in.
CONTROLLER_KINDS = {"Deployment": "apps/v1", "ReplicaSet": "apps/v1", "StatefulSet": "apps/v1", "Job": "batch/v1"}

# apimachinery's rand.String alphabet, and the name generator's limits (63 minus 5 random characters).
_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"
_MAX_BASE = 58


@record
class PodSet:
    """One workload: a pod and how many copies of it are asked for (``None``: as many as fit)."""

    kind: str  # Deployment, ReplicaSet, StatefulSet, Job or Pod
    name: str
    namespace: str
    asked: int | None
    pod: model.Pod
    indexed: bool = False  # a Job with completionMode Indexed
    first_ordinal: int = 0  # a StatefulSet's spec.ordinals.start
    order: tuple = ()  # where it was written (file, document): copies are placed in this order
    document: Document | None = None  # the template read as a Pod, for validation
    source: str = ""  # the file it was read from, on the command line
    line: int | None = None  # where the object starts in its text

    @property
    def label(self) -> str:
        return f"{self.kind}/{self.name}"

    def pod_name(self, replica: int) -> str:
        """The name of copy ``replica`` (0-based), as the controller names its pods."""
        if self.kind == "Pod":
            return self.name
        if self.kind == "StatefulSet":
            return f"{self.name}-{self.first_ordinal + replica}"
        if self.kind == "Deployment":
            return _generated(f"{self.name}-{_template_hash(self.namespace, self.name)}-", self.namespace, replica)
        if self.kind == "Job" and self.indexed:
            index = f"-{replica}-"  # the Job's name is cut, not the index, when the two are too long
            return _generated(self.name[: _MAX_BASE - len(index)] + index, self.namespace, replica)
        return _generated(f"{self.name}-", self.namespace, replica)

    def copy_pod(self, replica: int) -> model.Pod:
        return replace(self.pod, metadata=replace(self.pod.metadata, name=self.pod_name(replica)))

    def to_dict(self, placed: int) -> dict:
        return {"kind": self.kind, "name": self.name, "asked": self.asked, "placed": placed}


def _chars(seed: str, count: int) -> str:
    import hashlib  # deferred: only inputs with controllers need it (start-up, docs/performance.md)

    digest = hashlib.sha256(seed.encode()).digest()
    return "".join(_ALPHABET[b % len(_ALPHABET)] for b in digest[:count])


def _generated(base: str, namespace: str, replica: int) -> str:
    """``generateName`` completed as the apiserver would, with five characters derived, not random."""
    base = base[:_MAX_BASE]
    return base + _chars(f"{namespace}/{base}/{replica}", 5)


def _template_hash(namespace: str, name: str) -> str:
    """A pod-template-hash of the usual shape: a 32-bit number's decimal digits, each mapped to the alphabet."""
    import hashlib  # deferred: only inputs with controllers need it

    number = int.from_bytes(hashlib.sha256(f"{namespace}/{name}".encode()).digest()[:4], "big")
    return "".join(_ALPHABET[ord(d) % len(_ALPHABET)] for d in str(number))


def has_controllers(result: ReadResult) -> bool:
    """Whether the read text holds an object of a controller kind (``read_documents`` lists them as ignored)."""
    return any(entry.split(" ", 1)[0] in CONTROLLER_KINDS for entry in result.ignored)


def pod_sets(text: str, result: ReadResult, *, file: int = 0, default_namespace: str = "default",
             limits: Limits = DEFAULT) -> tuple[list[PodSet], list[Diagnostic]]:
    """The workloads of ``text`` (already read into ``result``): its controllers, and its Pods counting 1 each,
    in document order. Empty when the text has no controller: then the input is one workload, repeated."""
    if not has_controllers(result):
        return [], []
    # Deferred: the positioned reader loads PyYAML, which an input without controllers never needs.
    from allocator.reading.yamlsource import load_yaml_stream

    try:
        raw = load_yaml_stream(text, limits=limits)
    except DiagnosticError as err:
        return [], list(err.diagnostics)
    found: list[PodSet] = []
    errors: list[Diagnostic] = []
    for index, (data, pos) in enumerate(_flatten(raw)):
        if isinstance(data, dict) and data.get("kind") in CONTROLLER_KINDS:
            one, problems = _controller(data, pos, index, file, default_namespace)
            errors.extend(problems)
            if one is not None:
                found.append(one)
    for document in result.documents:
        if document.kind == "Pod":
            pod = document.obj
            found.append(PodSet("Pod", pod.metadata.name, pod.metadata.namespace, 1, pod,
                                order=(file, document.index)))
    found.sort(key=lambda s: s.order)
    return found, errors


def _controller(data: dict, pos, index: int, file: int, default_namespace: str
                ) -> tuple[PodSet | None, list[Diagnostic]]:
    kind = data["kind"]
    meta = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    name = meta.get("name") if isinstance(meta.get("name"), str) else ""
    errors: list[Diagnostic] = []

    def fail(field_path: str, kind_of_error: str, detail: str, at, value: str | None = None) -> None:
        at = at or pos
        errors.append(Diagnostic(field=field_path, type=kind_of_error, detail=detail, kind=kind, name=name,
                                 value=value, line=at[0] if at else None, column=at[1] if at else None))

    if data.get("apiVersion") != CONTROLLER_KINDS[kind]:
        fail("apiVersion", PARSE, f'no matches for kind "{kind}" in version "{data.get("apiVersion")}" '
             f'(served: {CONTROLLER_KINDS[kind]})', position_in(data, "apiVersion"))
        return None, errors
    if not name:
        fail("metadata.name", REQUIRED, "name or generateName is required", position_in(data, "metadata"))
        return None, errors
    namespace = meta.get("namespace") if isinstance(meta.get("namespace"), str) and meta.get("namespace") \
        else default_namespace
    spec = data.get("spec")
    if not isinstance(spec, dict):
        fail("spec", REQUIRED, "", position_in(data, "spec"))
        return None, errors

    def number_in(where: dict, key: str, default: int | None = 0, path: str = "spec.ordinals") -> int | None:
        value = where.get(key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            fail(f"{path}.{key}", INVALID, "must be greater than or equal to 0", position_in(where, key),
                 value=repr(value))
            return default
        return value

    def number(key: str, default: int | None) -> int | None:
        return number_in(spec, key, default, "spec")

    indexed = False
    if kind == "Job":
        parallelism, completions = number("parallelism", 1), number("completions", None)
        asked = parallelism if completions is None else min(parallelism, completions)
        if spec.get("suspend") is True:
            asked = 0
        indexed = spec.get("completionMode") == "Indexed"
    else:
        asked = number("replicas", 1)
    first_ordinal = 0
    if kind == "StatefulSet" and isinstance(spec.get("ordinals"), dict):
        ordinals = spec["ordinals"]
        first_ordinal = number_in(ordinals, "start")
    template = spec.get("template")
    pod_spec = template.get("spec") if isinstance(template, dict) else None
    if not isinstance(pod_spec, dict):
        where = "spec.template.spec" if isinstance(template, dict) else "spec.template"
        fail(where, REQUIRED, "", position_in(template, "spec") if isinstance(template, dict) else position_in(spec, "template"))
    if errors:
        return None, errors
    as_pod = PosDict({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": namespace},
                      "spec": pod_spec}, pos=getattr(template, "pos", None) or pos)
    as_pod.key_pos["spec"] = position_in(template, "spec")
    read = ReadResult()
    _read_one(as_pod, as_pod.pos, index, read, default_namespace)
    if read.errors:
        return None, [relocated(d, kind, name) for d in read.errors]
    document = read.documents[0]
    return PodSet(kind, name, namespace, asked, document.obj, indexed=indexed, first_ordinal=first_ordinal,
                  order=(file, index), document=document, line=pos[0] if pos else None), []


def relocated(diagnostic: Diagnostic, kind: str, name: str) -> Diagnostic:
    """A diagnostic about the template read as a Pod, at the controller's field (``spec.template.spec...``)."""
    field_path = diagnostic.field
    if field_path == "spec" or field_path.startswith(("spec.", "spec[")):
        field_path = "spec.template." + field_path
    elif field_path.startswith("metadata"):
        field_path = "spec.template." + field_path
    detail = diagnostic.detail.replace('field "spec.', 'field "spec.template.spec.')
    return replace(diagnostic, field=field_path, kind=kind, name=name, detail=detail)


def template_errors(sets: list[PodSet], documents: list[Document], gates, stored_gates) -> list[Diagnostic]:
    """What the apiserver refuses in the controllers' pod templates, checked as Pods are (beside the input's
    claims and templates, which a container's request must name), at the controllers' fields."""
    beside = [d for d in documents if d.kind in ("ResourceClaim", "ResourceClaimTemplate")]
    out: list[Diagnostic] = []
    for one in sets:
        if one.document is None:
            continue
        found = validate_documents(ReadResult(documents=[*beside, one.document]), gates, serving=gates,
                                   stored_gates=stored_gates, include_read_errors=False)
        out.extend(relocated(d, one.kind, one.name) for d in found if d.severity == "error" and d.kind == "Pod")
    return out
