"""Type checking of a parsed CEL expression and its compilation into Python closures."""

from __future__ import annotations

from allocator.cel import types as T
from allocator.cel.library import FUNCTIONS, compile_regex, index_value, opt_index, value_matches
from allocator.cel.parser import Node
from allocator.cel.values import (
    NONE,
    Abort,
    CELError,
    CostExceeded,
    EvalPanic,
    Optional,
    TypeValue,
    UInt,
    cel_equal,
    equal_is_true,
    go_type_name,
    map_lookup,
)
from allocator.kube.semver import Version
from allocator.reading import deadline

TYPE_NAMES = frozenset({"int", "uint", "double", "bool", "string", "bytes", "list", "map", "null_type", "type"})
COST_LIMIT = 1_000_000


class CheckError(Exception):
    def __init__(self, pos, message):
        super().__init__(message)
        self.pos = pos
        self.message = message


# --------------------------------------------------------------------------- environment
class Env:
    def __init__(self, gates: frozenset[str]):
        self.gates = gates
        attr = T.DYN if "DRAListTypeAttributes" in gates else T.ANY
        self.attr_type = attr
        fields = {
            "driver": T.STRING,
            "attributes": T.map_of(T.STRING, T.map_of(T.STRING, attr)),
            "capacity": T.map_of(T.STRING, T.map_of(T.STRING, T.QUANTITY)),
        }
        if "DRAConsumableCapacity" in gates:
            fields["allowMultipleAllocations"] = T.BOOL
        self.objects = {"kubernetes.DRADevice": fields}
        self.variables = {"device": T.DEVICE}

    def overloads(self, name):
        return [o for o in FUNCTIONS.get(name, ()) if o.gate is None or o.gate in self.gates]


# --------------------------------------------------------------------------- checker
class Checker:
    """Infers static types (stored on nodes as ``type``) and resolves overloads; see ``cost`` for costs."""

    def __init__(self, env: Env):
        self.env = env
        self.scopes: list[dict] = []
        self.overloads: dict[int, list] = {}

    def lookup_var(self, name):
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return self.env.variables.get(name)

    def check(self, node: Node):
        found = getattr(self, "c_" + node.kind)(node)
        node.type = found
        return found

    def c_lit(self, node):
        value = node.value
        if value is None:
            return T.NULL
        if type(value) is bool:
            return T.BOOL
        if type(value) is UInt:
            return T.UINT
        if type(value) is int:
            return T.INT
        if type(value) is float:
            return T.DOUBLE
        return T.STRING if type(value) is str else T.BYTES

    def c_ident(self, node):
        found = self.lookup_var(node.name)
        if found is None and node.name in TYPE_NAMES:
            return T.type_of(T.parse_type(node.name) if node.name != "list" else T.list_of(T.DYN))
        if found is None:
            raise CheckError(node.pos, f"undeclared reference to '{node.name}' (in container '')")
        return found

    def _qualified_name(self, node):
        """If n is a dotted identifier chain not naming a variable, return its text (e.g. 'optional')."""
        parts = []
        while node.kind == "select" and not node.mode:
            parts.append(node.field)
            node = node.operand
        if node.kind != "ident" or self.lookup_var(node.name) is not None:
            return None
        parts.append(node.name)
        return ".".join(reversed(parts))

    def c_select(self, node):
        ot = self.check(node.operand)
        base = ot.elem if node.mode == "opt" and ot.kind == "opt" else ot
        rt = self._field_type(node, base)
        if node.mode == "has":
            return T.BOOL
        if node.mode == "opt":
            return T.opt_of(rt)
        return rt

    def _field_type(self, node, ot):
        kind = ot.kind
        if kind == "obj":
            fields = self.env.objects.get(ot.name)
            if fields is None or node.field not in fields:
                raise CheckError(node.pos, f"undefined field '{node.field}'")
            return fields[node.field]
        if kind == "map":
            if not T.assignable(ot.key, T.STRING, {}):
                raise CheckError(node.pos, f"type '{T.fmt(ot)}' does not support field selection")
            return ot.value
        if T.is_dyn(ot) or kind == "param":
            return T.DYN
        raise CheckError(node.pos, f"type '{T.fmt(ot)}' does not support field selection")

    def c_list(self, node):
        elem = None
        for index, element in enumerate(node.elements):
            et = self.check(element)
            if index in node.optional_indexes:
                if et.kind != "opt" and not T.is_dyn(et):
                    raise CheckError(element.pos, f"expected type 'optional_type({T.fmt(et)})' but found '{T.fmt(et)}'")
                et = et.elem if et.kind == "opt" else T.DYN
            # Elements of different types make a list(dyn); heterogeneous_literals then refuses it
            # unless it is exempt (inside format()), as cel-go's validator does.
            elem = et if elem is None else (T.join(elem, et) or T.DYN)
        return T.list_of(elem or T.FREE)

    def c_map(self, node):
        kt = vt = None
        for key, val, opt in node.entries:
            k_t = self.check(key)
            v_t = self.check(val)
            if k_t.kind not in ("int", "uint", "bool", "string", "dyn", "any", "error"):
                raise CheckError(key.pos, f"unsupported map key type: {T.fmt(k_t)}")
            if opt:
                if v_t.kind != "opt" and not T.is_dyn(v_t):
                    raise CheckError(val.pos, f"expected type 'optional_type({T.fmt(v_t)})' but found "
                                              f"'{T.fmt(v_t)}'")
                v_t = v_t.elem if v_t.kind == "opt" else T.DYN
            if kt is None:
                kt, vt = k_t, v_t
            else:
                kt, vt = T.join(kt, k_t) or T.DYN, T.join(vt, v_t) or T.DYN
        return T.map_of(kt or T.FREE, vt or T.FREE)

    def c_struct(self, node):
        raise CheckError(node.pos, f"undeclared reference to '{node.type_name}' (in container '')")

    def c_bind(self, node):
        self.scopes.append({node.name: self.check(node.init)})
        try:
            return self.check(node.body)
        finally:
            self.scopes.pop()

    def c_comp(self, node):
        kind = node.macro
        rt = self.check(node.range)
        two = len(node.variables) == 2
        if rt.kind == "list":
            v1, v2 = (T.INT, rt.elem) if two else (rt.elem, None)
        elif rt.kind == "map":
            v1, v2 = (rt.key, rt.value) if two else (rt.key, None)
        elif T.is_dyn(rt):
            v1, v2 = T.DYN, T.DYN
        else:
            raise CheckError(node.range.pos, f"expression of type '{T.fmt(rt)}' cannot be range of a comprehension "
                                      "(must be list, map, or dynamic)")
        scope = {node.variables[0]: v1}
        if two:
            scope[node.variables[1]] = v2
        self.scopes.append(scope)
        try:
            bodies = [self.check(b) for b in node.bodies]
        finally:
            self.scopes.pop()
        if kind in ("all", "exists"):
            for bt in bodies:
                self._require_bool(bt, node, "_&&_" if kind == "all" else "_||_")
            return T.BOOL
        if kind == "exists_one":
            self._require_bool(bodies[0], node, "_?_:_")
            return T.BOOL
        if kind == "map":
            return T.list_of(bodies[0])
        if kind in ("map_filter", "filter"):
            self._require_bool(bodies[0], node, "_?_:_")
            return T.list_of(bodies[1]) if kind == "map_filter" else T.list_of(v1)
        if kind == "transformList":
            if len(bodies) == 2:
                self._require_bool(bodies[0], node, "_?_:_")
            return T.list_of(bodies[-1])
        if kind in ("transformMap", "transformMapEntry"):
            if len(bodies) == 2:
                self._require_bool(bodies[0], node, "_?_:_")
            if kind == "transformMap":
                return T.map_of(v1, bodies[-1])
            return bodies[-1] if bodies[-1].kind == "map" else T.map_of(T.DYN, T.DYN)
        if kind == "sortBy":
            return rt if rt.kind == "list" else T.list_of(T.DYN)
        raise CheckError(node.pos, f"unknown macro {kind}")  # pragma: no cover

    def _require_bool(self, bt, node, fn):
        if bt != T.BOOL and not T.is_dyn(bt):
            raise CheckError(node.pos, f"found no matching overload for '{fn}' applied to '(bool, {T.fmt(bt)})'")

    def c_call(self, node):
        name, target, args = node.function, node.target, node.args
        # qualified global function names: optional.of, lists.range, sets.contains, strings.quote, ...
        if target is not None:
            qual = self._qualified_name(target)
            if qual is not None and FUNCTIONS.get(qual + "." + name):
                name = qual + "." + name
                node.function = name
                target = None
                node.target = None
        if name in ("_&&_", "_||_"):
            lt, rt = self.check(args[0]), self.check(args[1])
            for t in (lt, rt):
                if t != T.BOOL and not T.is_dyn(t):
                    raise CheckError(node.pos, f"found no matching overload for '{name}' applied to "
                                            f"'({T.fmt(lt)}, {T.fmt(rt)})'")
            return T.BOOL
        if name == "_?_:_":
            ct, at, bt = (self.check(a) for a in args)
            joined = T.join(at, bt) if ct == T.BOOL or T.is_dyn(ct) else None
            if joined is None:
                raise CheckError(node.pos, f"found no matching overload for '_?_:_' applied to "
                                        f"'({T.fmt(ct)}, {T.fmt(at)}, {T.fmt(bt)})'")
            return joined
        arg_types = [self.check(a) for a in args]
        ttype = self.check(target) if target is not None else None
        overloads = self.env.overloads(name)
        if not overloads:
            raise CheckError(node.pos, f"undeclared reference to '{name}' (in container '')")
        all_types = ([ttype] if target is not None else []) + arg_types
        matches = []
        for ov in overloads:
            if ov.member != (target is not None) or len(ov.args) != len(all_types):
                continue
            bindings = {}
            if all(T.assignable(f, a, bindings) for f, a in zip(ov.args, all_types, strict=True)):
                matches.append((ov, T.substitute(ov.result, bindings)))
        if not matches:
            sig = ", ".join(T.fmt(t) for t in arg_types)
            prefix = T.fmt(ttype) + "." if target is not None else ""
            raise CheckError(node.pos, f"found no matching overload for '{name}' applied to '{prefix}({sig})'")
        self.overloads[node.id] = [m[0] for m in matches]
        results = {m[1] for m in matches}
        if name == "matches" and args:
            pat = args[-1]
            if pat.kind == "lit" and type(pat.value) is str:
                try:
                    compile_regex(pat.value)
                except CELError as e:
                    raise CheckError(pat.pos, f"invalid matches argument: {e.message}") from None
        return results.pop() if len(results) == 1 else T.DYN


def check(env: Env, root: Node):
    """The static type of the expression and the overloads each call resolved to."""
    checker = Checker(env)
    return checker.check(root), checker.overloads


def _equivalent(first, second) -> bool:
    """Same static type; a type parameter left free (see ``T.FREE``) would have been bound to match."""
    return first == second or T.has_free(first) or T.has_free(second)


def heterogeneous_literals(root: Node) -> list[tuple[int, str]]:
    """cel-go's homogeneous aggregate literal validator (on in Kubernetes): the elements of a list literal,
    and the keys and the values of a map literal, must all have the same static type -- ``dyn`` and ``int``
    differ. Literals inside a ``format()`` call are exempt."""
    issues: list[tuple[int, str]] = []

    def mismatch(node, expected, found):
        issues.append((node.pos, f"expected type '{T.fmt(expected)}' but found '{T.fmt(found)}'"))

    def visit(node, exempt):
        kind = node.kind
        if kind == "list" and not exempt:
            first = None
            for index, element in enumerate(node.elements):
                et = element.type.elem if index in node.optional_indexes and element.type.kind == "opt" else element.type
                if first is None or T.has_free(first):
                    first = et if first is None or not T.has_free(et) else first
                elif not _equivalent(first, et):
                    mismatch(element, first, et)
                    break
        elif kind == "map" and not exempt:
            first_k = first_v = None
            for key, val, opt in node.entries:
                kt, vt = key.type, (val.type.elem if opt and val.type.kind == "opt" else val.type)
                if first_k is None:
                    first_k, first_v = kt, vt
                    continue
                if not _equivalent(first_k, kt):
                    mismatch(key, first_k, kt)
                if not _equivalent(first_v, vt):
                    mismatch(val, first_v, vt)
        if kind == "call" and node.function == "format":
            exempt = True
        for child in node.children():
            visit(child, exempt)

    visit(root, False)
    return issues


# --------------------------------------------------------------------------- closures
def _one_binary_overload(ov, a0, a1):
    """``_generic_call``'s dispatch for a single overload of two arguments: the same checks in the same order."""
    t0, t1 = ov.args
    impl, charge = ov.impl, ov.charge

    def dispatch(act, check_hashable=False):
        v0 = a0(act)
        v1 = a1(act)
        if check_hashable and type(v0) is Version:
            raise EvalPanic("hash of unhashable type cel.Semver")
        if not (value_matches(t0, v0) and value_matches(t1, v1)):
            raise CELError("no such overload")
        if charge is not None:
            amount = charge((v0, v1))
            if amount:
                _charge(act, amount)
        return impl(v0, v1)
    return dispatch


class Budget:
    """What is left of an evaluation's cost limit; also where the analysis's time budget is looked at.

    ``left`` below ``floor`` calls ``spent``: with no time budget the floor is 0 (the cost limit); with one
    (``allocator.reading.deadline``) it is raised to look at the clock every ``COST_PER_CHECK`` units, so a
    charge stays one subtraction and one comparison either way.
    """

    __slots__ = ("left", "floor", "deadline")

    def __init__(self, limit: int) -> None:
        self.left = limit
        self.deadline = deadline.current()
        self.floor = 0
        if self.deadline is not None:  # an evaluation starts: a look at the clock, as many are cheap
            self.deadline.check()
            self._next_floor()

    def _next_floor(self) -> None:
        if self.deadline is not None:
            self.floor = max(0, self.left - deadline.COST_PER_CHECK)

    def reset(self, limit: int) -> None:
        self.left = limit
        self._next_floor()

    def spent(self) -> None:
        """Raise CostExceeded past the cost limit; else look at the clock and plan the next look."""
        if self.left < 0:
            raise CostExceeded()
        if self.deadline is not None:
            self.deadline.check()
            self._next_floor()


def _charge(act, amount):
    budget = act["@budget"]
    budget.left -= amount
    if budget.left < budget.floor:
        budget.spent()


class ProgramError(Exception):
    """The program cannot be built: cel-go's planner evaluated a constant and it failed."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


# Conversions that cel-go's optimiser (OptOptimize, on in Kubernetes) evaluates when the program is built
# if their argument is a constant; a failure then refuses the program.
CONVERSIONS = frozenset({"int", "uint", "double", "string", "bool", "bytes", "dyn", "type", "duration",
                         "timestamp"})


class LazyBinding:
    """A cel.bind variable: its expression runs on first use, once; an error is kept as its value."""

    __slots__ = ("init", "act", "done", "value", "error")

    def __init__(self, init, act):
        self.init = init
        self.act = act
        self.done = False
        self.value = None
        self.error = None

    def get(self):
        if not self.done:
            try:
                self.value = self.init(self.act)
            except Abort:
                raise
            except CELError as e:
                self.error = e
            self.done = True
            self.act = None
        if self.error is not None:
            raise self.error
        return self.value


class Compiler:
    def __init__(self, env: Env, overloads, per_iteration: dict[int, int]):
        self.env = env
        self.overloads = overloads
        self.per_iteration = per_iteration  # comprehension id -> estimated cost of one iteration
        self.scopes: list[dict[str, str]] = []  # innermost last: variable name -> "bind" or "iter"
        self.constants: set[int] = set()  # ids of nodes whose value is known when the program is built
        self.closures: dict[int, object] = {}  # node id -> its closure

    def compile(self, node: Node):
        closure = getattr(self, "k_" + node.kind)(node)
        self.closures[node.id] = closure  # explanations evaluate sub-expressions with these
        return closure

    def _is_constant(self, node: Node) -> bool:
        return node.kind == "lit" or id(node) in self.constants

    def k_lit(self, node):
        value = node.value
        return lambda act: value

    def k_ident(self, node):
        name = node.name
        for scope in reversed(self.scopes):
            if name in scope:
                if scope[name] == "bind":
                    return lambda act: act[name].get()
                break
        if node.type.kind == "type" and name in TYPE_NAMES:
            tv = TypeValue(name)
            return lambda act: tv
        return lambda act: act[name]

    def k_select(self, node):
        operand = self.compile(node.operand)
        field = node.field
        mode = node.mode
        if mode == "has":
            def has(act):
                value = operand(act)
                if isinstance(value, dict):
                    return field in value
                raise CELError("invalid type for field selection.")
            return has
        if mode == "opt":
            def opt_sel(act):
                value = operand(act)
                if isinstance(value, Optional):
                    if not value.present:
                        return NONE
                    value = value.value
                if isinstance(value, dict):
                    if field in value:
                        return Optional(value[field], True)
                    return NONE
                raise CELError("no such overload")
            return opt_sel

        def sel(act):
            value = operand(act)
            if isinstance(value, dict):
                try:
                    return value[field]
                except KeyError:
                    raise CELError(f"no such key: {field}") from None
            raise CELError("no such overload")
        return sel

    def k_list(self, node):
        elems = [self.compile(e) for e in node.elements]
        opts = node.optional_indexes
        if not opts:
            if all(self._is_constant(e) for e in node.elements):
                self.constants.add(id(node))
            return lambda act: [e(act) for e in elems]

        def mk(act):
            out = []
            for index, element in enumerate(elems):
                value = element(act)
                if index in opts:
                    if not isinstance(value, Optional):
                        raise CELError("no such overload")
                    if value.present:
                        out.append(value.value)
                else:
                    out.append(value)
            return out
        return mk

    def k_map(self, node):
        entries = [(self.compile(k), self.compile(v), opt) for k, v, opt in node.entries]
        if all(not opt and self._is_constant(k) and self._is_constant(v) for k, v, opt in node.entries):
            self.constants.add(id(node))

        def mk(act):
            out = {}
            for kf, vf, opt in entries:
                key = kf(act)
                if type(key) not in (int, str, bool) and not isinstance(key, int):
                    raise CELError("unsupported key type")
                if map_lookup(out, key)[0]:
                    raise CELError("Failed with repeated key")
                value = vf(act)
                if opt:
                    if not isinstance(value, Optional):
                        raise CELError("no such overload")
                    if not value.present:
                        continue
                    value = value.value
                out[key] = value
            return out
        return mk

    def k_bind(self, node):
        name = node.name
        init = self.compile(node.init)
        self.scopes.append({name: "bind"})
        try:
            body = self.compile(node.body)
        finally:
            self.scopes.pop()

        def bind(act):
            inner = dict(act)
            inner[name] = LazyBinding(init, act)
            return body(inner)
        return bind

    def k_comp(self, node):
        kind = node.macro
        per = max(1, min(self.per_iteration.get(node.id, 1), 1000))
        rng = self.compile(node.range)
        v1 = node.variables[0]
        v2 = node.variables[1] if len(node.variables) == 2 else None
        self.scopes.append({v: "iter" for v in node.variables})
        try:
            bodies = [self.compile(b) for b in node.bodies]
        finally:
            self.scopes.pop()

        def items(act):
            iterated = rng(act)
            if isinstance(iterated, (list, tuple)):
                return list(enumerate(iterated)) if v2 else [(x, None) for x in iterated]
            if isinstance(iterated, dict):
                return list(iterated.items()) if v2 else [(k, None) for k in iterated]
            raise CELError(f"got '{go_type_name(iterated)}', expected iterable type")

        def loop(act):
            seq = items(act)
            inner = dict(act)
            budget = act["@budget"]
            for first, second in seq:
                budget.left -= per
                if budget.left < budget.floor:
                    budget.spent()
                inner[v1] = first
                if v2 is not None:
                    inner[v2] = second
                yield inner

        if kind in ("all", "exists"):
            want = kind == "exists"
            pred = bodies[0]

            def quant(act):
                err = None
                for inner in loop(act):
                    try:
                        result = pred(inner)
                    except Abort:
                        raise
                    except CELError as e:
                        if err is None:
                            err = e
                        continue
                    if type(result) is not bool:
                        if err is None:
                            err = CELError("no such overload")
                        continue
                    if result is want:
                        return want
                if err is not None:
                    raise err
                return not want
            return quant
        if kind == "exists_one":
            pred = bodies[0]

            def one(act):
                count = 0
                for inner in loop(act):
                    result = pred(inner)
                    if type(result) is not bool:
                        raise CELError("no such overload")
                    if result:
                        count += 1
                return count == 1
            return one
        if kind == "map":
            transform = bodies[0]
            return lambda act: [transform(inner) for inner in loop(act)]
        if kind == "map_filter":
            predicate, transform = bodies
            return lambda act: [transform(inner) for inner in loop(act) if _bool(predicate(inner))]
        if kind == "filter":
            predicate = bodies[0]
            return lambda act: [inner[v1] for inner in loop(act) if _bool(predicate(inner))]
        if kind == "transformList":
            if len(bodies) == 2:
                predicate, transform = bodies
                return lambda act: [transform(inner) for inner in loop(act) if _bool(predicate(inner))]
            transform = bodies[0]
            return lambda act: [transform(inner) for inner in loop(act)]
        if kind in ("transformMap", "transformMapEntry"):
            predicate = bodies[0] if len(bodies) == 2 else None
            transform = bodies[-1]

            def tmap(act):
                out = {}
                for inner in loop(act):
                    if predicate is not None and not _bool(predicate(inner)):
                        continue
                    if kind == "transformMap":
                        out[inner[v1]] = transform(inner)
                    else:
                        entry = transform(inner)
                        if not isinstance(entry, dict):
                            raise CELError("no such overload")
                        for k, v in entry.items():
                            if map_lookup(out, k)[0]:
                                raise CELError(f"insert failed: key {k} already exists")
                            out[k] = v
                return out
            return tmap
        if kind == "sortBy":
            transform = bodies[0]

            def sort_by(act):
                pairs = [(inner[v1], transform(inner)) for inner in loop(act)]
                from allocator.cel.library import sort_values

                keys = sort_values([k for _, k in pairs])
                order = []
                used = [False] * len(pairs)
                for key in keys:
                    for i, (_, k) in enumerate(pairs):
                        if not used[i] and cel_equal(k, key):
                            used[i] = True
                            order.append(pairs[i][0])
                            break
                return order
            return sort_by
        raise AssertionError(kind)  # pragma: no cover

    def k_call(self, node):
        name = node.function
        if name == "_&&_" or name == "_||_":
            return self._logic(node)
        if name == "_?_:_":
            condition, if_true, if_false = (self.compile(arg) for arg in node.args)

            def conditional(act):
                value = condition(act)
                if value is True:
                    return if_true(act)
                if value is False:
                    return if_false(act)
                raise CELError("no such overload")
            return conditional
        if name in ("optMap", "optFlatMap"):
            raise CELError("unsupported")  # pragma: no cover
        args = ([self.compile(node.target)] if node.target is not None else []) + [self.compile(a) for a in node.args]
        ovs = self.overloads[node.id]
        static_ok = len(ovs) == 1 and all(
            not T.is_dyn(a.type) for a in (([node.target] if node.target is not None else []) + list(node.args)))
        if name == "_[_]":
            c0, c1 = args
            return lambda act: index_value(c0(act), c1(act))
        if name == "_[?_]":
            c0, c1 = args
            return lambda act: opt_index(c0(act), c1(act))
        if name in ("_==_", "_!=_"):
            a0, a1 = args
            if name == "_==_":
                def eq(act):
                    left = a0(act)
                    right = a1(act)
                    if type(left) is str and type(right) is str:
                        return left == right
                    return cel_equal(left, right)
                return eq
            # cel-go's `!=` is "Equal is not true": a failed comparison reads as unequal.
            return lambda act: not equal_is_true(a0(act), a1(act))
        if name == "@in" and node.args[1].kind in ("list", "map") and _hashes_lookup(node.args[1]):
            return self._hashed_in(self._generic_call(ovs, args))
        if name in CONVERSIONS and node.target is None and len(node.args) == 1 and self._is_constant(node.args[0]):
            return self._fold(node, self._generic_call(ovs, args))
        if static_ok and ovs[0].charge is None:
            impl = ovs[0].impl
            if len(args) == 1:
                a0 = args[0]
                return lambda act: impl(a0(act))
            if len(args) == 2:
                a0, a1 = args
                return lambda act: impl(a0(act), a1(act))
            return lambda act: impl(*[a(act) for a in args])

        return self._generic_call(ovs, args)

    def _fold(self, node, call):
        """Evaluate a conversion of a constant now, as cel-go's optimiser does; failing refuses the program."""
        try:
            value = call({"@budget": Budget(COST_LIMIT)})
        except CELError as e:
            raise ProgramError(e.message) from None
        self.constants.add(id(node))
        return lambda act: value

    @staticmethod
    def _hashed_in(generic):
        """`x in <literal>` where cel-go looks ``x`` up in a Go map: a semver cannot be hashed there."""
        def hashed_in(act):
            return generic(act, check_hashable=True)
        return hashed_in

    @staticmethod
    def _generic_call(ovs, args):
        if len(ovs) == 1 and len(args) == 2:  # the common case (a method on a dyn value), without the loops
            return _one_binary_overload(ovs[0], args[0], args[1])

        def dispatch(act, check_hashable=False):
            vals = [a(act) for a in args]
            if check_hashable and type(vals[0]) is Version:
                raise EvalPanic("hash of unhashable type cel.Semver")
            for ov in ovs:
                if all(value_matches(t, v) for t, v in zip(ov.args, vals, strict=True)):
                    if ov.charge is not None:
                        amount = ov.charge(vals)
                        if amount:
                            _charge(act, amount)
                    return ov.impl(*vals)
            raise CELError("no such overload")
        return dispatch

    def _logic(self, node):
        left = self.compile(node.args[0])
        right = self.compile(node.args[1])
        stop = node.function == "_||_"  # value that decides

        def logic(act):
            try:
                lv = left(act)
                lerr = None
                if lv is stop:
                    return stop
            except Abort:
                raise
            except CELError as e:
                lerr = e
                lv = None
            try:
                rv = right(act)
            except Abort:
                raise
            except CELError:
                if lerr is not None:
                    raise lerr from None
                if type(lv) is not bool:
                    raise CELError("no such overload") from None
                raise
            if rv is stop:
                return stop
            if lerr is not None:
                raise lerr
            if type(lv) is not bool or type(rv) is not bool:
                raise CELError("no such overload")
            return not stop
        return logic


def _hashes_lookup(container: Node) -> bool:
    """Does cel-go answer `x in container` by hashing x? Map literals always (their entries live in a Go
    map); list literals when the optimiser turned them into a set: constant elements of primitive types."""
    if container.kind == "map":
        return True
    return bool(container.elements) and all(
        element.kind == "lit" and type(element.value) is not bytes and element.value is not None
        for element in container.elements)


def _bool(value):
    if type(value) is not bool:
        raise CELError("no such overload")
    return value
