"""Random cases for the differential run: inventories, claims, templates and pods as Kubernetes objects.

A case is what the harness reads (``upstream/client.py``): ``{"id", "gates", "node", "objects", "run"}``,
plus the release it is meant for. Everything random comes from one ``random.Random`` seeded with the run's
seed and the case's number, so case N of a seed is the same case whatever else the run does.

The shapes follow the property tests' strategies (``allocator.tests.helpers.strategies``: counts, ``All``,
selectors that fail at run time on devices without the attribute, taints and tolerations, counters,
shareable devices with capacity, firstAvailable, admin access) written out as the objects a user applies,
and add what sits around the allocator: several nodes and drivers, pools split over slices, stale
generations, network-attached slices (``nodeSelector``, ``allNodes``, per-device node selection),
DeviceTaintRules, constraints, config, allocated claims with and without ``reservedFor``, templates and
pods with containers and extended resources, and feature gates moved away from the release's defaults.
"""

from __future__ import annotations

import random

from allocator.kube.convert_back import from_v1
from allocator.releases.gates import FeatureGateError, defaults, make_gates
from allocator.releases.rules import rules_of
from allocator.releases.table import release as release_table
from allocator.releases.table import release_key

DRIVERS = ("driver-a.example.com", "driver-b.example.com")
CLASSES = {"class-a": DRIVERS[0], "class-b": DRIVERS[1]}
EXTENDED_RESOURCE = "example.com/gpu"
NAMESPACE = "default"

# Request selectors over the attributes the devices carry; the model one fails at run time on a device
# without a model (the allocator then aborts, as upstream does), as in the property tests.
SELECTORS = (
    'device.attributes["{driver}"].numa == 1',
    'device.attributes["{driver}"].model == "m1"',
    'device.capacity["{driver}"].memory.compareTo(quantity("2Gi")) >= 0',
    'device.attributes["{driver}"].version.isGreaterThan(semver("1.1.0"))',
)
GUARDED_SELECTORS = (
    'has(device.attributes["{driver}"].numa) && device.attributes["{driver}"].numa != 2',
    '"model" in device.attributes["{driver}"]',
    'device.driver == "{driver}"',
    'has(device.attributes["{driver}"].model) && device.attributes["{driver}"].model.startsWith("m")',
    '"memory" in device.capacity["{driver}"] && device.capacity["{driver}"].memory.isGreaterThan(quantity("1Gi"))',
    'device.attributes["{driver}"].?version.orValue(semver("0.0.1")).isLessThan(semver("2.0.0"))',
)
TAINT_EFFECTS = ("NoSchedule", "NoExecute", "None")
ALL_WHATS = ("allocate", "create", "schedule")

# DRA gates a case may move away from the release's defaults (the others are locked or not simulated).
MOVABLE_GATES = ("DRAAdminAccess", "DRAPrioritizedList", "DRAPartitionableDevices", "DRADeviceTaints",
                 "DRAConsumableCapacity", "DRADeviceBindingConditions", "DRADeviceTaintRules",
                 "DRAListTypeAttributes", "DRAResourceClaimDeviceStatus", "DRAExtendedResource")


def case_rng(seed: int, index: int, release: str) -> random.Random:
    return random.Random(f"{seed}/{release}/{index}")


def generate_case(seed: int, index: int, release: str, what: str) -> dict:
    """Case ``index`` of the run with ``seed`` for ``release``; ``what`` is allocate, create or schedule."""
    rng = case_rng(seed, index, release)
    gates = _gates(rng, release)
    if what != "allocate" and rng.random() < 0.05:
        gates = _any_gates(rng, release)  # the components may refuse to start: the gates comparison
        if not defaults(release).get("DynamicResourceAllocation", True):
            # Off, 1.33's apiserver would not serve resource.k8s.io at all; the harness decodes with the
            # scheme and does not model what is served, so DRA stays on there.
            gates["DynamicResourceAllocation"] = True
    try:
        on = make_gates(gates, release).enabled
    except FeatureGateError:
        on = make_gates({}, release).enabled
    shape = _Shape(rng, release, on, binding=what == "allocate")
    objects = shape.inventory()
    node = rng.choice(shape.nodes)
    if what == "schedule":
        objects += shape.workload(with_pod=True)
    else:
        objects += shape.workload(with_pod=False)
    if shape.admin_access and rng.random() < 0.8:
        # Admin access needs the namespace labelled for it (the apiserver reads the Namespace).
        objects.insert(0, {"apiVersion": "v1", "kind": "Namespace", "metadata": _meta(
            NAMESPACE, labels={rules_of(release).admin_access_label: "true"})})
    if what == "create" and rng.random() < 0.5:
        _damage(rng, objects, release)
    write_in_served_version(objects, release)
    run = {"allocate": ["allocate"], "create": ["gates", "create"], "schedule": ["gates", "create", "schedule"]}
    return {"id": f"{what}-{release}-{seed}-{index}", "release": release, "gates": gates,
            "node": node if what == "allocate" else None, "objects": objects, "run": run[what]}


def write_in_served_version(objects: list[dict], release: str) -> None:
    """Before 1.34 there is no resource.k8s.io/v1: 1.33's v1beta2 has the same shape, so its objects are
    written in it; 1.32 serves v1beta1 (requests without ``exactly``, device fields under ``basic``), written
    as the apiserver's conversion writes it, and 1.31 v1alpha3 (the same shape, its only version). Both the
    engine and the harness then read what the release serves."""
    if release_key(release) >= release_key("1.34"):
        return
    version = "v1beta2" if release_key(release) >= release_key("1.33") else (
        "v1beta1" if release_key(release) >= release_key("1.32") else "v1alpha3")
    for i, obj in enumerate(objects):
        if obj.get("apiVersion") == "resource.k8s.io/v1":
            objects[i] = from_v1(obj["kind"], version, obj)


def _gates(rng: random.Random, release: str) -> dict[str, bool]:
    """A third of the cases move one to three gates; a set the components would refuse is drawn again."""
    base = defaults(release)
    # DRA itself is off by default before 1.34: every case of those releases turns it on.
    dra = {} if base.get("DynamicResourceAllocation", True) else {"DynamicResourceAllocation": True}
    movable = [g for g in MOVABLE_GATES if g in base and release_table(release).exists(g)
               and not release_table(release).locked(g)]
    for _ in range(10):
        if rng.random() >= 1 / 3 or not movable:
            return dra
        chosen = rng.sample(movable, k=min(len(movable), rng.randint(1, 3)))
        gates = {**dra, **{g: not base[g] for g in chosen}}
        try:
            make_gates(gates, release)
        except FeatureGateError:
            continue
        return gates
    return dra


def _any_gates(rng: random.Random, release: str) -> dict[str, bool]:
    """One to three DRA gates set either way, locked ones and ones the release lacks included."""
    names = sorted(defaults(release))
    return {g: rng.random() < 0.5 for g in rng.sample(names, k=rng.randint(1, 3))}


def _meta(name: str, namespaced: bool = False, **extra) -> dict:
    meta = {"name": name, **extra}
    if namespaced:
        meta["namespace"] = NAMESPACE
    return meta


class _Shape:
    """One case's inventory and workload, drawn together so that claims ask for what slices offer."""

    def __init__(self, rng: random.Random, release: str, enabled, binding: bool):
        self.rng, self.release, self.on = rng, release, enabled
        # Binding conditions only for the allocator alone: the scheduler would wait for the driver.
        self.binding = binding
        self.after_135 = release_key(release) >= release_key("1.35")
        self.nodes = [f"node-{i}" for i in range(rng.randint(1, 3))]
        self.drivers = list(DRIVERS[: rng.choice((1, 1, 2))])
        self.device_names: list[tuple[str, str, str]] = []  # (driver, pool, device)
        self.shareable: set[tuple[str, str, str]] = set()
        self.extended = False
        self.admin_access = False

    # --- the inventory ---------------------------------------------------------------------------------

    def inventory(self) -> list[dict]:
        rng = self.rng
        out = [{"apiVersion": "v1", "kind": "Node",
                "metadata": _meta(node, labels={"kubernetes.io/hostname": node, "region": f"region-{i % 2}"})}
               for i, node in enumerate(self.nodes)]
        for cls, driver in CLASSES.items():
            if driver in self.drivers:
                out.append(self._device_class(cls, driver))
        for driver in self.drivers:
            for node in self.nodes:
                if rng.random() < 0.9:
                    out += self._pool(driver, node, {"nodeName": node})
            if rng.random() < 0.25:
                out += self._pool(driver, "shared", self._network_attachment())
        if self.on("DRADeviceTaintRules") and self.device_names and rng.random() < 0.2:
            out.append(self._taint_rule())
        return out

    def _device_class(self, name: str, driver: str) -> dict:
        rng = self.rng
        spec: dict = {"selectors": [{"cel": {"expression": f'device.driver == "{driver}"'}}]}
        if rng.random() < 0.2:
            spec["config"] = [{"opaque": {"driver": driver, "parameters": {"class": name}}}]
        if (self.on("DRAExtendedResource") and name == "class-a" and rng.random() < 0.5):
            spec["extendedResourceName"] = EXTENDED_RESOURCE
            self.extended = True
        return {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": _meta(name), "spec": spec}

    def _network_attachment(self) -> dict:
        rng = self.rng
        choice = rng.choice(("allNodes", "nodeSelector", "perDevice"))
        if choice == "perDevice" and self.on("DRAPartitionableDevices"):
            return {"perDeviceNodeSelection": True}
        if choice == "nodeSelector":
            region = rng.choice(("region-0", "region-1"))
            return {"nodeSelector": {"nodeSelectorTerms": [{"matchExpressions": [
                {"key": "region", "operator": "In", "values": [region]}]}]}}
        return {"allNodes": True}

    def _pool(self, driver: str, node: str, attachment: dict) -> list[dict]:
        """One pool: one or two slices of devices, maybe a stale slice of an older generation, maybe
        counters (in a slice of their own from 1.35, beside the devices before)."""
        rng = self.rng
        pool = f"{node}-{driver.split('.')[0]}"
        generation = rng.choice((1, 1, 2))
        counters = self.on("DRAPartitionableDevices") and rng.random() < 0.3
        counter_set = {"name": "counters", "counters": {"memory": {"value": rng.choice(("4Gi", "8Gi"))}}}
        # Before 1.35 a device consumes counters of its own slice only: one slice then.
        device_slices = 1 if counters and not self.after_135 else rng.choice((1, 1, 2))
        counter_slice = counters and self.after_135
        count = device_slices + (1 if counter_slice else 0)
        if rng.random() < 0.05:
            count += 1  # a slice the pool says it has is missing: the pool is incomplete
        slices = []
        for number in range(device_slices):
            devices = [self._device(driver, pool, f"dev-{number}-{i}", attachment, counters)
                       for i in range(rng.randint(1, 4))]
            spec = {"driver": driver, "pool": {"name": pool, "generation": generation, "resourceSliceCount": count},
                    "devices": devices}
            if attachment.get("perDeviceNodeSelection"):
                spec["perDeviceNodeSelection"] = True
            else:
                spec.update(attachment)
            if counters and not self.after_135 and number == 0:
                spec["sharedCounters"] = [counter_set]
            slices.append(spec)
        if counter_slice:
            spec = {"driver": driver, "pool": {"name": pool, "generation": generation, "resourceSliceCount": count},
                    "sharedCounters": [counter_set]}
            spec.update(attachment if not attachment.get("perDeviceNodeSelection") else {"allNodes": True})
            slices.append(spec)
        if generation > 1 and rng.random() < 0.5:  # an older generation still listed: upstream ignores it
            stale = {**slices[0], "pool": {"name": pool, "generation": generation - 1, "resourceSliceCount": 1}}
            stale["devices"] = [{"name": "stale-0", **({"allNodes": True} if "perDeviceNodeSelection" in stale else {})}]
            slices.append(stale)
        return [{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
                 "metadata": _meta(f"{pool}-{i}"), "spec": spec} for i, spec in enumerate(slices)]

    def _device(self, driver: str, pool: str, name: str, attachment: dict, counters: bool) -> dict:
        rng = self.rng
        device: dict = {"name": name, "attributes": {}, "capacity": {}}
        if rng.random() < 0.85:
            device["attributes"]["numa"] = {"int": rng.randint(0, 2)}
        if rng.random() < 0.5:
            device["attributes"]["model"] = {"string": rng.choice(("m1", "m2"))}
        if rng.random() < 0.5:
            device["attributes"]["version"] = {"version": rng.choice(("1.0.0", "1.2.0", "2.0.0"))}
        if self.on("DRAListTypeAttributes") and rng.random() < 0.2:
            device["attributes"]["numa"] = {"ints": sorted(rng.sample((0, 1, 2), k=rng.randint(1, 2)))}
        if rng.random() < 0.7:
            device["capacity"]["memory"] = {"value": rng.choice(("1Gi", "2Gi", "4Gi"))}
        if self.on("DRADeviceTaints") and rng.random() < 0.15:
            effect = rng.choice(TAINT_EFFECTS if release_key(self.release) >= release_key("1.36") else
                                TAINT_EFFECTS[:2])
            device["taints"] = [{"key": "example.com/taint", "value": "v", "effect": effect}]
        if counters and rng.random() < 0.7:
            device["consumesCounters"] = [{"counterSet": "counters",
                                           "counters": {"memory": {"value": rng.choice(("2Gi", "4Gi"))}}}]
        if attachment.get("perDeviceNodeSelection"):
            device.update(rng.choice(({"nodeName": rng.choice(self.nodes)}, {"allNodes": True})))
        if self.on("DRAConsumableCapacity") and rng.random() < 0.15:
            device["allowMultipleAllocations"] = True
            device["capacity"]["memory"] = {"value": "4Gi", "requestPolicy": {
                "default": "1Gi", "validRange": {"min": "1Gi", "step": "1Gi"}}}
            self.shareable.add((driver, pool, name))
        if self.binding and self.on("DRADeviceBindingConditions") and rng.random() < 0.05:
            device["bindingConditions"] = ["ready"]
            device["bindingFailureConditions"] = ["failed"]
        for key in ("attributes", "capacity"):
            if not device[key]:
                del device[key]
        self.device_names.append((driver, pool, name))
        return device

    def _taint_rule(self) -> dict:
        driver, pool, device = self.rng.choice(self.device_names)
        selector = self.rng.choice(({"driver": driver}, {"driver": driver, "pool": pool, "device": device}))
        version = "v1" if release_key(self.release) >= release_key("1.37") else (
            "v1beta2" if release_key(self.release) >= release_key("1.36") else "v1alpha3")
        return {"apiVersion": f"resource.k8s.io/{version}", "kind": "DeviceTaintRule", "metadata": _meta("rule-0"),
                "spec": {"deviceSelector": selector,
                         "taint": {"key": "example.com/maintenance", "value": "v", "effect": "NoSchedule"}}}

    # --- the workload ------------------------------------------------------------------------------------

    def workload(self, with_pod: bool) -> list[dict]:
        rng = self.rng
        out = []
        if self.device_names and rng.random() < 0.3:
            out.append(self._allocated_claim())
        specs = [self._claim_spec() for _ in range(rng.choice((1, 1, 2)))]
        if not with_pod:
            return out + [self._claim(f"claim-{i}", spec) for i, spec in enumerate(specs)]
        pod_claims, container_claims = [], []
        for i, spec in enumerate(specs):
            if rng.random() < 0.5:
                out.append({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
                            "metadata": _meta(f"template-{i}", namespaced=True), "spec": {"spec": spec}})
                pod_claims.append({"name": f"pc-{i}", "resourceClaimTemplateName": f"template-{i}"})
            else:
                out.append(self._claim(f"claim-{i}", spec))
                pod_claims.append({"name": f"pc-{i}", "resourceClaimName": f"claim-{i}"})
            container_claims.append({"name": f"pc-{i}"})
        container: dict = {"name": "main", "image": "registry.k8s.io/pause:3.10",
                           "resources": {"claims": container_claims}}
        if self.extended and rng.random() < 0.5:
            amount = str(rng.randint(1, 2))
            container["resources"]["limits"] = {EXTENDED_RESOURCE: amount}
            container["resources"]["requests"] = {EXTENDED_RESOURCE: amount}
        pod = {"apiVersion": "v1", "kind": "Pod", "metadata": _meta("pod-0", namespaced=True),
               "spec": {"containers": [container], "resourceClaims": pod_claims}}
        if rng.random() < 0.2:
            pod["spec"]["initContainers"] = [{"name": "init", "image": "registry.k8s.io/pause:3.10",
                                              "resources": {"claims": container_claims[:1]}}]
        out.append(pod)
        return out

    def _claim(self, name: str, spec: dict) -> dict:
        return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
                "metadata": _meta(name, namespaced=True), "spec": spec}

    def _claim_spec(self) -> dict:
        rng = self.rng
        requests = []
        for i in range(rng.choice((1, 1, 1, 2, 3))):
            name = f"req-{i}"
            if self.on("DRAPrioritizedList") and rng.random() < 0.25:
                requests.append({"name": name, "firstAvailable": [
                    {"name": f"sub-{j}", **self._exact()} for j in range(rng.randint(1, 3))]})
            else:
                exact = self._exact()
                # 1.31 had adminAccess without a gate (DRAAdminAccess came in 1.32).
                admin_allowed = self.on("DRAAdminAccess") or not release_table(self.release).exists("DRAAdminAccess")
                if admin_allowed and rng.random() < 0.1:
                    exact["adminAccess"] = True
                    self.admin_access = True
                requests.append({"name": name, "exactly": exact})
        devices: dict = {"requests": requests}
        names = [r["name"] for r in requests]
        if rng.random() < 0.3:
            constraint = {"matchAttribute": f"{self.drivers[0]}/numa"}
            if self.on("DRAConsumableCapacity") and rng.random() < 0.3:
                constraint = {"distinctAttribute": f"{self.drivers[0]}/model"}
            if len(names) > 1 and rng.random() < 0.5:
                constraint["requests"] = rng.sample(names, k=2)
            devices["constraints"] = [constraint]
        if rng.random() < 0.2:
            config = {"opaque": {"driver": self.drivers[0], "parameters": {"claim": True}}}
            if rng.random() < 0.5:
                config["requests"] = [rng.choice(names)]
            devices["config"] = [config]
        return {"devices": devices}

    def _exact(self) -> dict:
        rng = self.rng
        cls = rng.choice([c for c, d in CLASSES.items() if d in self.drivers])
        exact: dict = {"deviceClassName": cls}
        if rng.random() < 0.1:
            exact["allocationMode"] = "All"
        else:
            count = rng.choice((1, 1, 1, 2, 2, 3))
            if count != 1 or rng.random() < 0.5:
                exact["allocationMode"] = "ExactCount"
                exact["count"] = count
        if rng.random() < 0.35:
            choices = SELECTORS if rng.random() < 0.3 else GUARDED_SELECTORS
            exact["selectors"] = [{"cel": {"expression": rng.choice(choices).format(driver=CLASSES[cls])}}]
        if self.on("DRADeviceTaints") and rng.random() < 0.2:
            exact["tolerations"] = [rng.choice((
                {"key": "example.com/taint", "operator": "Exists", "effect": "NoSchedule"},
                {"key": "example.com/taint", "operator": "Equal", "value": "v"},
                {"operator": "Exists"}))]
        if self.on("DRAConsumableCapacity") and self.shareable and rng.random() < 0.25:
            exact["capacity"] = {"requests": {"memory": rng.choice(("1Gi", "2Gi", "3Gi"))}}
        return exact

    def _allocated_claim(self) -> dict:
        """A claim allocated earlier holding one device, reserved for a pod or not."""
        rng = self.rng
        driver, pool, device = rng.choice(self.device_names)
        result = {"request": "req-0", "driver": driver, "pool": pool, "device": device}
        if (driver, pool, device) in self.shareable:
            result["shareID"] = "5d1a7c3e-0000-4000-8000-000000000001"
            result["consumedCapacity"] = {"memory": "1Gi"}
        status: dict = {"allocation": {"devices": {"results": [result]}}}
        if pool.startswith("node-"):
            node = pool.rsplit("-", 1)[0]
            status["allocation"]["nodeSelector"] = {"nodeSelectorTerms": [{"matchFields": [
                {"key": "metadata.name", "operator": "In", "values": [node]}]}]}
        if rng.random() < 0.5:
            status["reservedFor"] = [{"resource": "pods", "name": "other-pod",
                                      "uid": "0a4c2f5e-0000-4000-8000-000000000002"}]
        cls = next(c for c, d in CLASSES.items() if d == driver)
        spec = {"devices": {"requests": [{"name": "req-0", "exactly": {"deviceClassName": cls}}]}}
        return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
                "metadata": _meta("allocated-0", namespaced=True, uid="7b0e3d2a-0000-4000-8000-000000000003",
                                  resourceVersion="1"),
                "spec": spec, "status": status}


def _damage(rng: random.Random, objects: list[dict], release: str) -> None:
    """One change the apiserver should refuse (or accept) on create: the create comparison's inputs."""
    claims = [o for o in objects if o["kind"] in ("ResourceClaim", "ResourceClaimTemplate")
              and "status" not in o]
    if not claims:
        return
    target = rng.choice(claims)
    spec = target["spec"]["spec"] if target["kind"] == "ResourceClaimTemplate" else target["spec"]
    requests = spec["devices"]["requests"]
    request = rng.choice(requests)
    exact = request.get("exactly") or request["firstAvailable"][0]
    changes = ("count", "name", "selector", "class", "duplicate", "mode", "tolerations", "capacity")
    if release_key(release) < release_key("1.34"):
        # No request capacity before 1.34: an unknown field, which the harness's lenient decoder drops while
        # the apiserver's strict field validation (kubectl's default) refuses it; not a create question.
        changes = changes[:-1]
    if release_key(release) < release_key("1.33"):
        changes = changes[:-1]  # nor request tolerations before 1.33 (DRADeviceTaints came then), for the same reason
    change = rng.choice(changes)
    if change == "count":
        exact["allocationMode"], exact["count"] = "ExactCount", rng.choice((0, -1, 129))
    elif change == "name":
        request["name"] = rng.choice(("Req_0", "", "a" * 64))
    elif change == "selector":
        exact["selectors"] = [{"cel": {"expression": rng.choice((
            "device.attributes[", "device.driver", "1 + 1", 'device.attributes["x"].y.z > 1',
            '["a"].includes("a")'))}}]
    elif change == "class":
        exact["deviceClassName"] = rng.choice(("", "Not_A_Name"))
    elif change == "duplicate":
        requests.append(dict(request))
    elif change == "mode":
        exact["allocationMode"] = rng.choice(("Some", "All"))
        exact["count"] = 2
    elif change == "tolerations":
        exact["tolerations"] = [{"key": "k", "operator": "Exists", "value": "v"}]
    else:
        exact["capacity"] = {"requests": {"memory": "-1Gi"}}
