"""Worst-case cost estimate of a checked CEL expression, as the apiserver computes it for DRA selectors.

This follows cel-go's ``checker.Cost`` walk over the checked expression (macros as cel-go expands them),
with the estimators the DRA compiler installs: the apiserver's ``library.CostEstimator`` for the
Kubernetes and string-extension functions, the cel-go extension estimators (lists, sets), DRA's
``includes()`` rule and DRA's size estimator, which knows the declared maximum sizes of what ``device``
holds. Every estimate is a (min, max) range; only ``max`` is compared with the limit, but some results
(``replace()``'s size) depend on ``min`` too.

The estimate also records, per node, what it cost (``parts``), so an explanation can say which part of a
refused selector costs what.
"""

from __future__ import annotations

import math

from allocator.cel import types as T
from allocator.cel.parser import Node, children
from allocator.reading.records import record

MAX = (1 << 64) - 1
STRING_TRAVERSAL = 0.1  # cel-go common.StringTraversalCostFactor
REGEX_LENGTH = 0.25  # common.RegexStringLengthCostFactor
LIST_CREATE = 10
MAP_CREATE = 30

# DRA's declared maxima (k8s.io/api resource/v1 constants)
_DRIVER_MAX = 63  # DriverNameMaxLength
_DOMAIN_MAX = 63  # DeviceMaxDomainLength
_ID_MAX = 32  # DeviceMaxIDLength
_ENTRIES_MAX = 32  # ResourceSliceMaxAttributesAndCapacitiesPerDevice
_ATTRIBUTE_VALUES_MAX = 48  # ResourceSliceMaxAttributeValuesPerDevice
_ATTRIBUTE_MAX = 64  # max(DeviceAttributeMaxValueLength, values per device) of the newest declaration


def _add(left: int, right: int) -> int:
    return MAX if left + right > MAX else left + right


def _mul(left: int, right: int) -> int:
    return MAX if left * right > MAX else left * right


def _factor(amount: int, factor: float) -> int:
    if amount > 0 and factor > 0 and amount > MAX / factor:
        return MAX
    product = math.ceil(amount * factor)
    return MAX if product >= 2 ** 64 else product


@record(frozen=True)
class Est:
    """A (min, max) range: a size or a cost."""

    lo: int
    hi: int

    def __add__(self, other: Est) -> Est:
        return Est(_add(self.lo, other.lo), _add(self.hi, other.hi))

    def __mul__(self, other: Est) -> Est:
        return Est(_mul(self.lo, other.lo), _mul(self.hi, other.hi))

    def times(self, factor: float) -> Est:
        return Est(_factor(self.lo, factor), _factor(self.hi, factor))

    def union(self, other: Est) -> Est:
        return Est(min(self.lo, other.lo), max(self.hi, other.hi))


def fixed(value: int) -> Est:
    return Est(value, value)


UNKNOWN = Est(0, MAX)
ZERO = fixed(0)
ONE = fixed(1)


@record(frozen=True)
class Entry:
    """Sizes of the entries of a list or map value: ``key`` (1 for lists) and ``val``."""

    container: str  # "list" or "map"
    key: Est
    val: Est

    def union(self, other: Entry | None) -> Entry | None:
        if other is None:
            return None
        return Entry(self.container, self.key.union(other.key), self.val.union(other.val))


@record
class _Local:
    path: tuple | None
    size: Est | None
    entry: Entry | None


def device_size(path: tuple) -> Est | None:
    """DRA's size estimator: the declared maximum size of what a path below ``device`` holds."""
    if not path or path[0] != "device":
        return None
    node = "device"
    for step in path[1:]:
        if node == "device":
            node = {"driver": "driver", "attributes": "attrs", "capacity": "caps",
                    "allowMultipleAllocations": "bool"}.get(step)
        elif node in ("attrs", "caps"):
            node = {"@keys": "domain", "@values": node + "-inner"}.get(step)
        elif node == "attrs-inner":
            # any attribute name selects an attribute value (same declared size for all)
            node = "id" if step == "@keys" else "attribute"
        elif node == "caps-inner":
            node = {"@keys": "id", "@values": "quantity"}.get(step)
        elif node == "attribute" and step in ("@items", "@values"):
            node = None  # a dyn attribute declares no element type
        else:
            node = None
        if node is None:
            return None
    return Est(0, {"driver": _DRIVER_MAX, "attrs": _ENTRIES_MAX, "caps": _ENTRIES_MAX, "attrs-inner": _ENTRIES_MAX,
                   "caps-inner": _ENTRIES_MAX, "domain": _DOMAIN_MAX, "id": _ID_MAX, "attribute": _ATTRIBUTE_MAX,
                   "bool": 1, "quantity": 0}[node])


def _scalar(cel_type) -> bool:
    return cel_type.kind in ("int", "uint", "double", "bool") or (cel_type.kind == "opt" and _scalar(cel_type.elem))


def _is_string_like(cel_type) -> bool:
    return cel_type in (T.STRING, T.BYTES)


class Coster:
    def __init__(self, overloads: dict[int, list], includes_from_lists: bool = False):
        self.overloads = overloads
        # 1.37: includes() is the lists library's, costed like indexOf (a list literal of strings has elements
        # of no known size); 1.36's DRA function cost at most one comparison per attribute value.
        self.includes_from_lists = includes_from_lists
        self.paths: dict[int, tuple] = {}
        self.sizes: dict[int, Est] = {}
        self.entries: dict[int, Entry] = {}
        self.locals: dict[str, list[_Local]] = {}
        self.parts: dict[int, Est] = {}  # cost of each node (with its children)
        self.per_iteration: dict[int, int] = {}  # comprehension node id -> max cost of one iteration

    # -- bookkeeping shared by all node kinds
    def cost(self, node: Node) -> Est:
        estimate = getattr(self, "_" + node.kind)(node)
        self.parts[node.id] = estimate
        return estimate

    def _push(self, name, path, size, entry):
        self.locals.setdefault(name, []).append(_Local(path, size, entry))

    def _pop(self, name):
        self.locals[name].pop()

    def _local(self, name) -> _Local | None:
        stack = self.locals.get(name)
        return stack[-1] if stack else None

    def path(self, node: Node) -> tuple | None:
        if node.kind == "ident":
            local = self._local(node.name)
            if local is not None:
                return local.path
        return self.paths.get(node.id)

    def size(self, node: Node) -> Est | None:
        """cel-go's computeSize: recorded, literal, declared (by path), scalar, or a local's size."""
        if node.id in self.sizes:
            return self.sizes[node.id]
        if node.kind == "lit":
            value = node.value
            return fixed(len(value) if isinstance(value, (str, bytes)) else 1)
        if node.kind == "list":
            return fixed(len(node.elements))
        if node.kind == "map":
            return fixed(len(node.entries))
        path = self.path(node)
        if path:
            declared = device_size(path)
            if declared is not None:
                self.sizes[node.id] = declared
                return declared
        if node.type is not None and _scalar(node.type):
            return ONE
        if node.kind == "ident":
            local = self._local(node.name)
            if local is not None and local.size is not None:
                return local.size
        return None

    def size_or_unknown(self, node: Node) -> Est:
        measured = self.size(node)
        return measured if measured is not None else UNKNOWN

    def entry(self, node: Node) -> Entry | None:
        if node.id in self.entries:
            return self.entries[node.id]
        if node.kind == "ident":
            local = self._local(node.name)
            if local is not None:
                return local.entry
        return None

    # -- node kinds
    def _lit(self, node):
        return ZERO

    def _ident(self, node):
        local = self._local(node.name)
        self.paths[node.id] = local.path if local is not None else (node.name,)
        return ONE

    def _select(self, node):
        operand = self.cost(node.operand)
        if node.mode == "has":
            return ONE + operand
        if node.mode == "opt":  # `a.?b` is the call _?._(a, "b") in cel-go: a plain function call
            return ONE + operand
        cost = operand
        if node.operand.type.kind in ("map", "obj", "param"):
            cost = cost + ONE
        base = self.path(node.operand)
        if base is not None:
            self.paths[node.id] = base + (node.field,)
        return cost

    def _list(self, node):
        total = ZERO
        item = Est(MAX, 0) if node.elements else ZERO
        for e in node.elements:
            total = total + self.cost(e)
            item = item.union(self.size_or_unknown(e))
        self.entries[node.id] = Entry("list", ONE, item)
        return total + fixed(LIST_CREATE)

    def _map(self, node):
        total = ZERO
        key = Est(MAX, 0) if node.entries else ZERO
        val = Est(MAX, 0) if node.entries else ZERO
        for k, v, _ in node.entries:
            total = total + self.cost(k) + self.cost(v)
            key = key.union(self.size_or_unknown(k))
            val = val.union(self.size_or_unknown(v))
        self.entries[node.id] = Entry("map", key, val)
        return total + fixed(MAP_CREATE)

    def _struct(self, node):  # pragma: no cover - the checker refuses message literals
        return fixed(40)

    def _bind(self, node):
        total = fixed(LIST_CREATE) + self.cost(node.init)  # the expansion iterates over an empty list literal
        self._push(node.name, self.path(node.init), self.size(node.init), self.entry(node.init))
        total = total + self.cost(node.body)
        self._pop(node.name)
        size = self.size(node.body)
        if size is not None:
            self.sizes[node.id] = size
        entry = self.entry(node.body)
        if entry is not None:
            self.entries[node.id] = entry
        return total

    # Per macro as cel-go expands it: (cost of the accumulator's initial value, of the loop condition,
    # of the step besides the bodies, of the result; the result's size: "one" or "range").
    _MACROS = {
        "all": (0, 2, 1, 1, "one"),  # cond @not_strictly_false(r); step r && p; result r
        "exists": (0, 3, 1, 1, "one"),  # cond @not_strictly_false(!r); step r || p
        "exists_one": (0, 0, 2, 2, "one"),  # step p ? r + 1 : r; result r == 1
        "map": (LIST_CREATE, 0, 12, 1, "range"),  # step r + [f]
        "map_filter": (LIST_CREATE, 0, 12, 1, "range"),  # step p ? r + [f] : r
        "filter": (LIST_CREATE, 0, 13, 1, "range"),  # step p ? r + [x] : r
        "transformList": (LIST_CREATE, 0, 12, 1, "range"),
        "transformMap": (MAP_CREATE, 0, 32, 1, "range"),  # step cel.@mapInsert(r, k, f)
        "transformMapEntry": (MAP_CREATE, 0, 32, 1, "range"),
        "sortBy": (LIST_CREATE, 0, 12, 1, "range"),
    }

    def _comp(self, node):
        kind = node.macro
        rng = node.range
        total = self.cost(rng)
        init, cond, step_extra, result, result_size = self._MACROS.get(kind, (0, 0, 1, 1, "one"))
        total = total + fixed(init)
        entry = self.entry(rng)
        container = entry.container if entry is not None else ("list" if rng.type.kind == "list" else "map")
        base = self.path(rng)
        names = list(node.variables)
        if len(names) == 2:
            key_path = base + ("@indices" if container == "list" else "@keys",) if base is not None else None
            val_path = base + ("@items" if container == "list" else "@values",) if base is not None else None
            self._push(names[0], key_path, entry.key if entry else None, None)
            self._push(names[1], val_path, entry.val if entry else None, None)
        else:
            if container == "list":
                sub, size = "@items", (entry.val if entry else None)
            else:
                sub, size = "@keys", (entry.key if entry else None)
            self._push(names[0], base + (sub,) if base is not None else None, size, None)
        body = ZERO
        for b in node.bodies:
            body = body + self.cost(b)
        item = self._local(names[-1])
        item_size = item.size or (device_size(item.path) if item.path else None) or UNKNOWN
        for name in names:
            self._pop(name)
        per = fixed(cond + step_extra) + body
        if kind in ("all", "exists"):  # the step is a logical operator: its minimum skips the body
            per = Est(cond + step_extra, per.hi)
        count = self.size_or_unknown(rng)
        total = total + fixed(result) + count * per
        self.per_iteration[node.id] = per.hi
        if result_size == "one":
            self.sizes[node.id] = ONE
        else:
            self.sizes[node.id] = count
            if node.bodies:
                produced = item_size if kind == "filter" else (self.size(node.bodies[-1]) or UNKNOWN)
                self.entries[node.id] = Entry("list" if node.type.kind == "list" else "map", ONE, Est(0, produced.hi))
        return total

    def _call(self, node):
        name = node.function
        args = list(node.args)
        if name == "dyn" and node.target is None and len(args) == 1:
            c = self.cost(args[0])
            size = self.size(args[0])
            if size is not None:
                self.sizes[node.id] = size
            entry = self.entry(args[0])
            if entry is not None:
                self.entries[node.id] = entry
            return ONE + c
        arg_costs = [self.cost(a) for a in args]
        if name in ("_&&_", "_||_"):
            lhs, rhs = arg_costs
            return Est(lhs.lo, (lhs + rhs).hi)
        if name == "_?_:_":
            cond, yes, no = arg_costs
            self.sizes[node.id] = self.size_or_unknown(args[1]).union(self.size_or_unknown(args[2]))
            e1, e2 = self.entry(args[1]), self.entry(args[2])
            if e1 is not None and e2 is not None:
                self.entries[node.id] = e1.union(e2)
            return cond + yes.union(no)
        total = ZERO
        target = node.target
        if target is not None:
            total = total + self.cost(target)
        overloads = self.overloads.get(node.id) or []
        if not overloads:
            return total + ONE + sum(arg_costs, ZERO)
        fn = Est(MAX, 0)
        result: Est | None = None
        for ov in overloads:
            cost, size = self._function(node, ov, target, args, arg_costs)
            fn = fn.union(cost)
            if size is not None:
                result = size if result is None else result.union(size)
            if ov.oid in ("index_list", "index_map"):
                entry = self.entry(args[0])
                result = entry.val if entry is not None else None
                base = self.path(args[0])
                if base is not None:
                    self.paths[node.id] = base + ("@items" if ov.oid == "index_list" else "@values",)
            if result is None:
                result = self.size(node)
        if result is not None:
            self.sizes[node.id] = result
        return total + fn

    # -- one overload: (cost including the arguments but not the target, result size or None)
    def _function(self, node, ov, target, args, arg_costs):
        args_sum = sum(arg_costs, ZERO)
        name, oid = node.function, ov.oid
        size = self.size_or_unknown
        special = self._kubernetes(name, oid, target, args)
        if special is not None:
            cost, result = special
            return cost + args_sum, result
        if oid == "add_string" or oid == "add_bytes" or oid == "add_list":
            result = size(args[0]) + size(args[1])
            e1, e2 = self.entry(args[0]), self.entry(args[1])
            if e1 is not None and e2 is not None:
                self.entries[node.id] = e1.union(e2)
            if oid == "add_list":
                return ONE + args_sum, result
            return result.times(STRING_TRAVERSAL) + args_sum, result
        if name == "format" and target is not None:
            return size(target).times(STRING_TRAVERSAL) + args_sum, None
        if name == "strings.quote" and len(args) == 1:
            length = size(args[0])
            return length.times(STRING_TRAVERSAL) + args_sum, Est(_add(length.lo, 2), _add(_mul(length.hi, 2), 2))
        if name == "bytes" and ov.args == (T.STRING,):
            length = size(args[0])
            return length.times(STRING_TRAVERSAL) + args_sum, Est(length.lo, _mul(length.hi, 4))
        if name == "string" and ov.args == (T.BYTES,):
            length = size(args[0])
            return length.times(STRING_TRAVERSAL) + args_sum, Est(length.lo // 4, length.hi)
        if name in ("startsWith", "endsWith") and target is not None and len(args) == 1:
            return size(args[0]).times(STRING_TRAVERSAL) + args_sum, None
        if oid == "in_list":
            return size(args[1]) + args_sum, None
        if oid == "matches_string":
            text = (size(target) + ONE).times(STRING_TRAVERSAL)
            return text * size(args[0]).times(REGEX_LENGTH) + args_sum, None
        if name == "contains" and target is not None and ov.args == (T.STRING, T.STRING):
            return size(target).times(STRING_TRAVERSAL) * size(args[0]).times(STRING_TRAVERSAL) + args_sum, None
        if name in ("_==_", "_!=_") or (name in ("_<_", "_<=_", "_>_", "_>=_") and _is_string_like(ov.args[0])
                                         and ov.args[0] == ov.args[1]):
            smallest = min(size(args[0]).hi, size(args[1]).hi)
            return Est(1 if smallest > 0 else 0, smallest).times(STRING_TRAVERSAL) + args_sum, None
        return ONE + args_sum, None

    def _list_extension(self, name, target, args):
        """cel-go's lists and sets extension estimators (they take precedence over the others)."""
        def allocating(factor, list_size):
            return list_size.times(factor) + ONE + fixed(LIST_CREATE), list_size

        def int_literal(node, default):
            return node.value if node.kind == "lit" and type(node.value) is int and node.value >= 0 else default

        if name == "lists.range" and target is None and len(args) == 1:
            return allocating(1, fixed(int_literal(args[0], MAX)))
        if target is None:
            if name in ("sets.contains", "sets.intersects", "sets.equivalent") and len(args) == 2:
                factor = 2 if name == "sets.equivalent" else 1
                return (self.size_or_unknown(args[0]) * self.size_or_unknown(args[1])).times(factor) + ONE, None
            return None
        length = self.size_or_unknown(target)
        if name == "slice" and len(args) == 2:
            start, end = int_literal(args[0], 0), int_literal(args[1], length.hi)
            return allocating(1, fixed(max(end - start, 0)))
        if name == "reverse" and not args:
            return allocating(1, length)
        if name == "flatten" and len(args) <= 1:
            return allocating(int_literal(args[0], MAX) if args else 1, length)
        if name == "distinct" and not args:
            return allocating(2, length * length)
        if name == "sort" and not args:
            elem = target.type.elem if target.type.kind == "list" else T.DYN
            return allocating(2 + (STRING_TRAVERSAL if _is_string_like(elem) else 0), length * length)
        return None

    def _kubernetes(self, name, oid, target, args):
        """The apiserver's library.CostEstimator and DRA's includes(): (cost without arguments, size)."""
        ext = self._list_extension(name, target, args)
        if ext is not None:
            return ext
        size = self.size_or_unknown
        if name == "includes" and oid == "dra_includes_dyn_dyn" and target is not None and not self.includes_from_lists:
            return Est(0, _ATTRIBUTE_VALUES_MAX), None
        if name in ("isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes") and target is not None:
            if target.type.kind == "list":
                elem_cost = ONE
                elem = target.type.elem
                if _is_string_like(elem):
                    base = self.path(target)
                    elem_size = device_size(base + ("@items",)) if base else None
                    elem_cost = elem_cost + (elem_size or UNKNOWN).times(STRING_TRAVERSAL)
                return size(target) * elem_cost, None
            if name == "includes":
                return size(target), None
            return size(target).times(STRING_TRAVERSAL), None
        if name in ("url",) and len(args) == 1:
            length = size(args[0])
            return length.times(STRING_TRAVERSAL), length
        if name in ("lowerAscii", "upperAscii", "substring", "trim") and target is not None:
            length = size(target)
            return length.times(STRING_TRAVERSAL), length
        if name == "replace" and target is not None and len(args) >= 2:
            return self._replace(size(target), size(args[0]), size(args[1]))
        if name == "split" and target is not None:
            length = size(target)
            top = length.hi
            if len(args) > 1 and args[1].kind == "lit" and type(args[1].value) is int:
                top = args[1].value % (1 << 64)
            return length.times(2 * STRING_TRAVERSAL), Est(0, top)
        if name == "join" and target is not None:
            listed = size(target)
            joined = ZERO
            if target.type.kind == "list":
                base = self.path(target)
                elem_size = device_size(base + ("@items",)) if base else None
                joined = listed * (elem_size or UNKNOWN)
            if args:
                separators = Est(max(listed.lo - 1, 0), max(listed.hi - 1, 0) if listed.hi < MAX else MAX - 1)
                joined = joined + size(args[0]) * separators
            return joined.times(STRING_TRAVERSAL), joined
        if name in ("find", "findAll") and target is not None and args:
            length = size(target)
            text = (length + ONE).times(STRING_TRAVERSAL)
            return text * size(args[0]).times(REGEX_LENGTH), Est(0, length.hi)
        if name in ("cidr", "isIP", "isCIDR") and args:
            return size(args[0]).times(STRING_TRAVERSAL), None
        if name == "ip":
            if oid == "cidr_ip" or (target is not None and not args):
                return ONE, None
            if args:
                return size(args[0]).times(STRING_TRAVERSAL), None
        if name == "ip.isCanonical" and args:
            return size(args[0]).times(2 * STRING_TRAVERSAL), None
        if name in ("masked", "prefixLength", "family", "isUnspecified", "isLoopback", "isLinkLocalMulticast",
                    "isLinkLocalUnicast", "isGlobalUnicast"):
            return ONE, None
        if name in ("containsIP", "containsCIDR") and args:
            addr = Est(4, 16)
            cost = (addr + addr).times(STRING_TRAVERSAL)
            if name == "containsCIDR":
                cost = cost + addr.times(STRING_TRAVERSAL) + ONE
            if args[0].type == T.STRING:
                cost = cost + size(args[0]).times(STRING_TRAVERSAL)
            return cost, None
        if name in ("quantity", "isQuantity", "semver", "isSemver") and args:
            return size(args[0]).times(STRING_TRAVERSAL), None
        if name == "format.named":
            return ONE, None
        if name in ("sign", "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan", "isLessThan",
                    "compareTo", "add", "sub", "major", "minor", "patch", "getScheme", "getHostname", "getHost",
                    "getPort", "getEscapedPath", "getQuery"):
            return ONE, None
        if name == "_==_" and len(args) == 2 and args[0].type == args[1].type and args[0].type.kind == "obj":
            if args[0].type in (T.QUANTITY, T.SEMVER, T.IP, T.CIDR):
                return ONE, None
            if args[0].type == T.URL:
                return ONE.times(STRING_TRAVERSAL), None
        return None

    @staticmethod
    def _replace(text: Est, old: Est, new: Est):
        if old.lo == 0:
            count_hi, kept_hi = (_add(text.hi, 1) if text.hi < MAX else text.hi), text.hi
        elif new.hi <= old.lo:
            count_hi, kept_hi = 0, text.hi
        else:
            count_hi, kept_hi = math.ceil(text.hi / old.lo) if text.hi < MAX else MAX, 0
        if old.hi == 0:
            count_lo, kept_lo = (_add(text.lo, 1) if text.lo < MAX else text.lo), text.lo
        elif old.hi <= new.lo:
            count_lo, kept_lo = 0, text.lo
        else:
            count_lo, kept_lo = math.ceil(text.lo / old.hi), 0
        result = Est(count_lo, count_hi) * new + Est(kept_lo, kept_hi)
        return text.times(2 * STRING_TRAVERSAL), result


def estimate(root: Node, overloads: dict[int, list], includes_from_lists: bool = False) -> tuple[int, Coster]:
    """The worst-case cost of a checked expression (its max), and the coster holding the parts."""
    coster = Coster(overloads, includes_from_lists)
    return coster.cost(root).hi, coster


# Estimates this large only come from sizes without a declared maximum (2^64 - 1 times a factor).
_UNBOUNDED = 1 << 60


def _figure(value: int) -> str:
    return "unbounded" if value >= _UNBOUNDED else f"{value:,}"


def explain_cost(source: str, root: Node, coster: Coster, limit: int) -> str:
    """Which part of a refused expression costs what: the smallest sub-expression over the limit."""
    node = root
    while True:
        over = [c for c in children(node) if coster.parts.get(c.id, ZERO).hi > limit]
        if not over:
            break
        node = max(over, key=lambda c: coster.parts[c.id].hi)
    total = coster.parts[root.id].hi
    part = source[node.start:node.end]
    if len(part) > 80:
        part = part[:77] + "..."
    text = f"estimated cost {_figure(total)}, the limit is {limit:,}"
    if node is not root:
        text += f"; the costliest part is `{part}` ({_figure(coster.parts[node.id].hi)})"
    per = coster.per_iteration.get(node.id)
    if per is not None and node.kind == "comp":
        count = coster.size_or_unknown(node.range).hi
        text += (f": it runs its body up to {_figure(count)} times at up to {_figure(per)} each"
                 if count < _UNBOUNDED else ": it iterates over something of unknown size")
    elif coster.parts[node.id].hi >= _UNBOUNDED:
        text += (": its cost grows with the size of a value whose maximum is not declared (the elements of "
                 "a list literal, the result of charAt(), a capacity read as a field)")
    return text
