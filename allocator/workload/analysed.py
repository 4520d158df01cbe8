"""A controller in the analysis of one pod: its template's first pod, as its controller would create it.

The page, ``analyze`` and ``allocate`` look at one pod; a Deployment, ReplicaSet, StatefulSet or Job
(read by ``controllers.pod_sets``, as capacity planning reads them) is shown as the first pod it
makes: the template's pod spec, named as the controller names that pod (``PodSet.pod_name(0)``),
whose claims from templates are then named after it as the resource-claim controller does. How many
of its replicas fit is capacity planning's question; each workload says how many it asks for, so
that every surface can point there.
"""

from __future__ import annotations

from allocator.kube.objects import Document, ReadResult
from allocator.reading.diagnostics import Diagnostic
from allocator.reading.limits import DEFAULT, Limits
from allocator.reading.records import record, replace
from allocator.releases.gates import FeatureGates, stored_object_gates
from allocator.workload.controllers import CONTROLLER_KINDS, PodSet, pod_sets, template_errors


@record
class AnalysedWorkload:
    """A controller of the input and the pod analysed for it (``None`` when it asks for no pod now)."""

    workload: PodSet
    pod: Document | None

    @property
    def replicas(self) -> int:
        return self.workload.asked or 0

    def note(self, planner: str) -> str:
        """What the analysis shows of the workload; ``planner``: where its surface answers "how many fit"."""
        if self.pod is None:
            return "0 pods asked for: nothing to analyse"
        if self.replicas == 1:
            return "1 replica: this pod"
        return f"×{self.replicas} replicas: one analysed; see {planner}"

    def to_dict(self, planner: str) -> dict:
        one = self.workload
        return {"kind": one.kind, "name": one.name, "namespace": one.namespace, "replicas": self.replicas,
                "pod": self.pod.name if self.pod is not None else None, "line": one.line,
                "note": self.note(planner)}


def read_workloads(text: str, result: ReadResult, gates: FeatureGates, *, file: int = 0,
                   limits: Limits = DEFAULT) -> tuple[list[AnalysedWorkload], list[Diagnostic]]:
    """The controllers of ``text`` (already read into ``result``) with their first pods, or what is wrong
    with them: what the apiserver refuses in a controller or its pod template, at the controller's fields."""
    sets, errors = pod_sets(text, result, file=file, limits=limits)
    found = analysed(sets)
    errors = errors + template_errors([w.workload for w in found], result.documents, gates,
                                      stored_object_gates(gates.release))
    return found, errors


def analysed(sets: list[PodSet]) -> list[AnalysedWorkload]:
    """The controllers among ``sets`` (``controllers.pod_sets``), each with its first pod."""
    found = []
    for one in sets:
        if one.kind not in CONTROLLER_KINDS:
            continue
        pod = replace(one.document, obj=one.copy_pod(0)) if one.asked and one.document is not None else None
        found.append(AnalysedWorkload(one, pod))
    return found


def still_ignored(ignored: list[str]) -> list[str]:
    """``ReadResult.ignored`` without the controllers this module reads."""
    return [entry for entry in ignored if entry.split(" ", 1)[0] not in CONTROLLER_KINDS]


# Kinds that make pods or group them, whose claims matter to DRA, but that no analysis reads (besides the
# controllers above when they are in the inventory): never to be called "not used by DRA".
UNREAD_WORKLOAD_KINDS = ("DaemonSet", "CronJob", "ReplicationController", "PodGroup", "Workload",
                         *CONTROLLER_KINDS)


def split_ignored(ignored: list[str]) -> tuple[list[str], list[str]]:
    """(objects DRA does not use, workload objects that are not analysed) of ``Report.ignored``."""
    unused, unread = [], []
    for entry in ignored:
        (unread if entry.split(" ", 1)[0] in UNREAD_WORKLOAD_KINDS else unused).append(entry)
    return unused, unread
