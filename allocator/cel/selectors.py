"""CEL selectors of classes and requests, evaluated per device and remembered.

Upstream evaluates a device against a request once per allocation and
remembers the answer. We remember per selector and device content, which
gives the same answers (CEL sees only driver, attributes, capacity and
allowMultipleAllocations) and lets a search over many nodes with identical
devices evaluate each expression once.

Devices of different nodes rarely have the same content (a uuid attribute
differs), so an expression that provably reads only some attributes and
capacities (``static_reads``) is also answered, and explained, once per
projection of the device onto what it reads (``_Memory.shared_keys``).

A selector that fails to compile or to run stops an allocation with upstream's message: that is
``AllocatorError``, defined here, the base of the allocator's other errors (``allocation.errors``).
"""

from __future__ import annotations

from collections.abc import Sequence

from allocator.cel import CELCompileError, CELRuntimeError, build_device, compile_selector
from allocator.cel import _split as split_name  # how build_device files a name under a domain
from allocator.kube import model
from allocator.kube.quantity import Quantity
from allocator.reading import deadline
from allocator.reading.records import NamedTuple


class AllocatorError(Exception):
    """Allocation had to stop: invalid input the scheduler would refuse (bad CEL, unknown class...).

    The message is upstream's, word for word, so it can be compared. ``expression`` is the CEL selector
    that failed, when one did (explanations use it).
    """

    expression: str | None = None


class SelectorRuntimeError(AllocatorError):
    """A selector failed on a device: upstream's message of 1.37, and its parts for older releases' wording."""

    def __init__(self, owner: str, index: int, device_id, cause: str, expression: str):
        super().__init__(f"{owner}: selector #{index} on device {device_id}: CEL runtime error: "
                         f"{enhance_runtime_error(cause)}")
        self.owner, self.index, self.cause, self.expression = owner, index, cause, expression

    def released_before_1_37(self) -> AllocatorError:
        """The same error as allocators before 1.37 worded it: no device, no optional-access advice."""
        error = AllocatorError(f"{self.owner}: selector #{self.index}: CEL runtime error: "
                               f"{self.cause.replace(_NO_SUCH_KEY_HINT, '')}")
        error.expression = self.expression
        return error


# cel.EnhanceRuntimeError adds this to every "no such key" error.
_NO_SUCH_KEY_HINT = (". consider using CEL optional chaining (.? followed by orValue()) or guarding the check "
                     "with has() for optional fields")


def enhance_runtime_error(message: str) -> str:
    if "no such key:" in message and _NO_SUCH_KEY_HINT not in message:
        return message + _NO_SUCH_KEY_HINT
    return message


def compile_error_text(err) -> str:
    """The text of upstream's compile error: issues from cel-go get a prefix, a wrong result type does not."""
    if getattr(err, "reason", "") in ("syntax", "type"):
        return f"compilation failed: {err}"
    return str(err)


def device_fingerprint(driver: str, device: model.Device, allow_multiple: bool) -> tuple:
    """What a CEL selector can see of a device, as a hashable value.

    In the device's order, not sorted: a plain name and its ``driver/`` form
    are one entry for CEL, and ``build_device`` keeps the last of them."""
    return _fingerprint(driver, device_entries(driver, device), allow_multiple)


def device_entries(driver: str, device: model.Device) -> tuple:
    """The device's attributes, then capacities, in its order, each as ((map, domain, name) where
    ``build_device`` files it, its name in the device, its value as a hashable, the entry itself)."""
    return (tuple((("attributes", *split_name(name, driver)), name, _attribute_fields(a), a)
                  for name, a in device.attributes.items())
            + tuple((("capacity", *split_name(name, driver)), name, c.value, c) for name, c in device.capacity.items()))


def _fingerprint(driver: str, entries: tuple, allow_multiple: bool) -> tuple:
    return driver, tuple((entry[0][0], entry[1], entry[2]) for entry in entries), allow_multiple


# Fields of the device that every projection keeps (``build_device`` always sets them).
_DEVICE_FIELDS = ("driver", "allowMultipleAllocations")
_DEVICE_MAPS = ("attributes", "capacity")


def static_reads(root) -> frozenset | None:
    """The (map, domain, name) entries an expression reads of the device, if that is all it can read.

    Reads are ``device.attributes["domain"].name`` (or ``["name"]``, or under
    ``has()``) and the same of ``device.capacity``, plus ``device.driver`` and
    ``device.allowMultipleAllocations``. None when the expression might read
    anything else: the device or one of its maps as a value, a domain by a
    field or a computed key, optional access, or a variable named ``device``
    of its own. Then the answer can depend on the whole device.
    """
    found: set = set()
    return frozenset(found) if root is not None and _only_static(root, found) else None


def _only_static(node, found: set) -> bool:
    kind = node.kind
    if kind == "lit":
        return True
    if kind == "ident":
        return node.name != "device"
    read = _static_read(node)
    if read is not None:
        if read:
            found.add(read)
        return True
    if kind == "comp" and "device" in node.variables:
        return False
    if kind == "bind" and node.name == "device":
        return False
    return all(_only_static(child, found) for child in node.children())


def _is_device(node) -> bool:
    return node.kind == "ident" and node.name == "device"


def _literal_index(node):
    """(operand, key) of ``x["key"]`` with a string literal, else None."""
    if node.kind == "call" and node.function == "_[_]" and node.target is None and len(node.args) == 2:
        key = node.args[1]
        if key.kind == "lit" and type(key.value) is str:
            return node.args[0], key.value
    return None


def _static_read(node) -> tuple | None:
    """() for ``device.driver``-like reads, (map, domain, name) for an entry, None for anything else."""
    if node.kind == "select" and node.mode in ("", "has"):
        if _is_device(node.operand) and node.field in _DEVICE_FIELDS:
            return ()
        operand, name = node.operand, node.field
    else:
        found = _literal_index(node)
        if found is None:
            return None
        operand, name = found
    # The domain only by index: a missing domain is then an empty map, as in a projection that lacks it.
    found = _literal_index(operand)
    if found is None:
        return None
    outer, domain = found
    if outer.kind == "select" and outer.mode == "" and _is_device(outer.operand) and outer.field in _DEVICE_MAPS:
        return outer.field, domain, name
    return None


def _attribute_fields(a: model.DeviceAttribute) -> tuple:
    return (a.int, a.bool, a.string, a.version,
            tuple(a.ints) if a.ints is not None else None, tuple(a.bools) if a.bools is not None else None,
            tuple(a.strings) if a.strings is not None else None,
            tuple(a.versions) if a.versions is not None else None)


def _may_fail_to_build(a: model.DeviceAttribute, list_values: bool) -> bool:
    """Whether ``build_device`` could refuse this attribute: only a version to parse, no value at all, or a list
    where lists have no CEL value (``list_values`` false)."""
    if a.version is not None or a.versions is not None:
        return True
    if not list_values and (a.ints is not None or a.bools is not None or a.strings is not None):
        return True
    return (a.int is None and a.bool is None and a.string is None and a.ints is None and a.bools is None
            and a.strings is None)


class _Memory:
    """What a SelectorEvaluator has learned; replaced whole when it grows too big.

    Content keys (small numbers) index the other maps, so they must never be
    mixed between two memories: every public call takes one memory and keeps it.
    """

    __slots__ = ("list_values", "device_keys", "classes", "content_keys", "built", "results", "verdicts", "explained",
                 "projections", "shared_keys", "shared_devices", "shared_built", "shared_results", "shared_explained",
                 "entries", "failures", "build_failures", "shared_verdicts")

    def __init__(self, list_values: bool):
        # Whether list-typed attributes have a CEL value (DRAListTypeAttributes in the compile gates).
        self.list_values = list_values
        # (id(device), allowMultipleAllocations as CEL sees it) -> (device, content key)
        self.device_keys: dict[tuple[int, object], tuple[model.Device, int]] = {}
        self.classes: dict[int, tuple[model.DeviceClass, tuple[str, ...]]] = {}  # id(class) -> its expressions
        self.content_keys: dict[tuple, int] = {}
        # content -> the device as CEL sees it (or why it cannot), built once for all its selectors
        self.built: dict[int, dict | CELRuntimeError] = {}
        self.results: dict[tuple[str, int], bool | Exception] = {}
        self.verdicts: dict[tuple, tuple[str, int]] = {}
        self.explained: dict[tuple[str, int], list[dict]] = {}  # (expression, content) -> deciding parts
        # A device projected onto what an expression reads: (content, reads) -> shared key, a small
        # number per distinct (driver, allowMultipleAllocations, entries read, why the whole device
        # cannot be built), which keys the shared answers as content keys the others.
        self.projections: dict[tuple[int, frozenset], int] = {}
        self.shared_keys: dict[tuple, int] = {}
        self.shared_devices: dict[int, tuple] = {}  # shared key -> build_device arguments, or the failure
        self.shared_built: dict[int, dict | CELRuntimeError] = {}
        self.shared_results: dict[tuple[str, int], bool | Exception] = {}
        self.shared_explained: dict[tuple[str, int], list[dict]] = {}
        self.shared_verdicts: dict[tuple, tuple[str, int]] = {}  # (shared key, class, request expressions)
        self.entries: dict[int, tuple] = {}  # content -> ``device_entries`` of its first device
        self.failures: dict[int, str | None] = {}  # content -> why build_device refuses it (``_build_failure``)
        # What build_device says of the entries that can fail (versions, empty attributes, capacities).
        self.build_failures: dict[tuple, str | None] = {}

    def answers(self) -> int:
        return (len(self.results) + len(self.verdicts) + len(self.explained) + len(self.projections)
                + len(self.shared_results) + len(self.shared_explained) + len(self.shared_verdicts))

    def forget_answers(self) -> None:
        """Drop the answers but keep the devices' keys and CEL values (the costly part to build again)."""
        self.results, self.verdicts, self.explained = {}, {}, {}
        self.projections, self.shared_results, self.shared_explained, self.shared_verdicts = {}, {}, {}, {}

    def devices(self) -> int:
        """Devices, classes and projected devices known (their CEL values are what is costly to build).

        ``entries`` and ``failures`` are left out: they have at most one entry per device key."""
        return len(self.device_keys) + len(self.classes) + len(self.shared_keys) + len(self.build_failures)


class _SeenDevice(NamedTuple):
    """A device as selectors see it (driver, the device, allowMultipleAllocations as CEL reads it), with its
    content key in ``memory``: what every evaluation on it needs, travelling as one value."""

    memory: _Memory
    content: int
    driver: str
    device: model.Device
    allow_multiple: bool


class SelectorEvaluator:
    """Compiles (through ``allocator.cel``) and evaluates selectors, remembering the answers.

    Answers depend only on the expressions and the device content, never on
    the node or the call, so one evaluator can serve every call of a process
    (``shared_evaluator``): a claim edited against a stored cluster then
    evaluates only the expressions that changed. ``max_devices`` and
    ``max_answers`` bound the memory (see ``forget_if_full``).
    """

    def __init__(self, gates: frozenset[str], max_devices: int | None = None, max_answers: int | None = None):
        self.gates = gates
        self.max_devices = max_devices
        self.max_answers = max_answers
        self._compiled: dict[str, object] = {}  # expression -> compiled selector or CELCompileError
        self._reads: dict[str, frozenset | None] = {}  # expression -> ``static_reads`` of it
        self._joint: dict[tuple, frozenset | None] = {}  # (class, request expressions) -> what they read
        self._memory = _Memory("DRAListTypeAttributes" in gates)

    def _current(self) -> _Memory:
        return self._memory

    def forget_if_full(self) -> None:
        """Keep within the bounds (checked between calls, not per device): past ``max_devices`` devices
        start again; past ``max_answers`` answers forget the answers only."""
        memory = self._memory
        if self.max_devices is not None and memory.devices() > self.max_devices:
            self._memory = _Memory(memory.list_values)
            self._compiled, self._reads, self._joint = {}, {}, {}
        elif self.max_answers is not None and memory.answers() > self.max_answers:
            memory.forget_answers()
        if self.max_answers is not None and max(len(self._compiled), len(self._joint)) > MAX_COMPILED:
            # every keystroke in a selector is a new expression; compiling again is cheap
            self._compiled, self._reads, self._joint = {}, {}, {}

    @staticmethod
    def _device_value(seen: _SeenDevice) -> dict:
        """The CEL value of a device; raises CELRuntimeError when it has none (e.g. a bad version)."""
        memory, content, device = seen.memory, seen.content, seen.device
        built = memory.built.get(content)
        if built is None:
            try:
                built = build_device(seen.driver, device.attributes, device.capacity, seen.allow_multiple,
                                     memory.list_values)
            except CELRuntimeError as err:
                built = err
            except ValueError as err:  # a capacity that is no quantity (validation says so too)
                built = CELRuntimeError(str(err))
            memory.built[content] = built
        if isinstance(built, CELRuntimeError):
            raise CELRuntimeError(str(built))  # a fresh one each time: a raised exception keeps its traceback
        return built

    @staticmethod
    def _content_key(memory: _Memory, driver: str, device: model.Device, allow_multiple: bool) -> int:
        """A small number per distinct device content (cheap to hash, unlike the content itself).

        The map by ``id(device)`` keeps the device alive, so an id is never reused while it is in there."""
        found = memory.device_keys.get((id(device), allow_multiple))
        if found is None or found[0] is not device:
            entries = device_entries(driver, device)
            fingerprint = _fingerprint(driver, entries, allow_multiple)
            key = memory.content_keys.get(fingerprint)
            if key is None:
                key = memory.content_keys[fingerprint] = len(memory.content_keys)
                memory.entries[key] = entries  # for projections (``_layout``)
            found = (device, key)
            memory.device_keys[id(device), allow_multiple] = found
        return found[1]

    @staticmethod
    def _seen(memory: _Memory, driver: str, device: model.Device, allow_multiple: bool) -> _SeenDevice:
        return _SeenDevice(memory, SelectorEvaluator._content_key(memory, driver, device, allow_multiple), driver,
                           device, allow_multiple)

    @staticmethod
    def _class_expressions(memory: _Memory, device_class: model.DeviceClass) -> tuple[str, ...]:
        """The class's CEL expressions (what its verdicts depend on), worked out once per class object."""
        found = memory.classes.get(id(device_class))
        if found is None or found[0] is not device_class:
            found = (device_class, tuple(s.cel.expression if s.cel is not None else ""
                                         for s in device_class.spec.selectors))
            memory.classes[id(device_class)] = found
        return found[1]

    def compile(self, expression: str):
        """The compiled selector, or the CELCompileError that compiling it gave (both remembered)."""
        return self._compile(expression)

    def _compile(self, expression: str):
        compiled = self._compiled.get(expression)
        if compiled is None:
            try:
                compiled = compile_selector(expression, gates=self.gates, estimate_cost=False)
            except CELCompileError as err:
                compiled = err
            self._compiled[expression] = compiled
        return compiled

    def verdict(self, device_class: model.DeviceClass | None, request_expressions: tuple[str, ...], driver: str,
                device: model.Device, allow_multiple: bool, device_id, claim: str) -> tuple[str, int]:
        """("", -1) when class and request selectors all match, else ("class" or "request", index).

        Remembered per device content, class and request selectors, so the
        same question on another node (or for another claim, or in the next
        call) costs a lookup. ``claim`` (``NS/NAME``) is for the messages of
        errors, which raise AllocatorError with upstream's text and are not remembered.
        """
        memory = self._current()
        content = self._content_key(memory, driver, device, allow_multiple)
        class_expressions = None if device_class is None else self._class_expressions(memory, device_class)
        key = (content, class_expressions, request_expressions)
        found = memory.verdicts.get(key)
        if found is None:
            seen = _SeenDevice(memory, content, driver, device, allow_multiple)

            def decide():
                return self._decide(seen, device_class, class_expressions, request_expressions, device_id, claim)
            reads = self._joint_reads(class_expressions, request_expressions)
            if reads is None:
                found = decide()
            else:  # every selector reads only some entries: so does the verdict, which can then be shared
                shared = (self._projection(seen, reads), class_expressions, request_expressions)
                found = memory.shared_verdicts.get(shared)
                if found is None:
                    found = memory.shared_verdicts[shared] = decide()
            memory.verdicts[key] = found
        return found

    def _decide(self, seen: _SeenDevice, device_class, class_expressions, request_expressions, device_id,
                claim: str) -> tuple[str, int]:
        if class_expressions is not None:
            index = self._first_false(seen, class_expressions, device_id, f"class {device_class.metadata.name}")
            if index >= 0:
                return "class", index
        index = self._first_false(seen, request_expressions, device_id, f"claim {claim}")
        return ("request", index) if index >= 0 else ("", -1)

    def _joint_reads(self, class_expressions, request_expressions) -> frozenset | None:
        """What the class and request selectors read together (``static_reads``); None when one may read more
        or does not compile."""
        key = (class_expressions, request_expressions)
        if key not in self._joint:
            joint: set | None = set()
            for expression in (class_expressions or ()) + request_expressions:
                compiled = self._compile(expression)
                reads = None if isinstance(compiled, CELCompileError) else self._static_reads(expression, compiled)
                if reads is None:
                    joint = None
                    break
                joint |= reads
            self._joint[key] = None if joint is None else frozenset(joint)
        return self._joint[key]

    def outcomes(self, expression: str, devices: Sequence[tuple[str, model.Device, bool]]) -> list:
        """``outcome`` on each (driver, device, allowMultipleAllocations), in one call (warnings ask for
        every device of an inventory on each edit)."""
        compiled = self._compile(expression)
        if isinstance(compiled, CELCompileError):
            return [compiled] * len(devices)
        if deadline.current() is not None:  # should the time budget run out here, it names the selector
            with deadline.located(selector=f"the selector ({short_expression(expression)})"):
                return self._outcomes(expression, compiled, devices)
        return self._outcomes(expression, compiled, devices)

    def _outcomes(self, expression: str, compiled, devices: Sequence[tuple[str, model.Device, bool]]) -> list:
        memory = self._current()
        known, results = memory.device_keys, memory.results
        out = []
        for driver, device, allow_multiple in devices:
            found = known.get((id(device), allow_multiple))
            content = (found[1] if found is not None and found[0] is device
                       else self._content_key(memory, driver, device, allow_multiple))
            outcome = results.get((expression, content))
            if outcome is None:
                outcome = self._evaluated(_SeenDevice(memory, content, driver, device, allow_multiple), expression,
                                          compiled)
            out.append(outcome)
        return out

    def joint_reads(self, device_class: model.DeviceClass | None,
                    request_expressions: tuple[str, ...]) -> frozenset | None:
        """What the class's and the request's selectors read of a device together; None when one may read
        more (``static_reads``) or does not compile."""
        class_expressions = (None if device_class is None
                             else self._class_expressions(self._current(), device_class))
        return self._joint_reads(class_expressions, request_expressions)

    def device_keys(self) -> DeviceKeys:
        """Keys for devices as selectors see them, in this evaluator's memory of now."""
        return DeviceKeys(self._current())

    def outcome(self, expression: str, driver: str, device: model.Device,
                allow_multiple: bool) -> bool | CELRuntimeError | CELCompileError:
        """One selector on one device: its value, or the error that compiling or evaluating it gave."""
        compiled = self._compile(expression)
        if isinstance(compiled, CELCompileError):
            return compiled
        return self._evaluated(self._seen(self._current(), driver, device, allow_multiple), expression, compiled)

    def _evaluated(self, seen: _SeenDevice, expression: str, compiled) -> bool | CELRuntimeError:
        results = seen.memory.results
        key = (expression, seen.content)
        outcome = results.get(key)
        if outcome is None:
            outcome = self._worked_out(seen, expression, compiled, self._evaluate, seen.memory.shared_results)
            results[key] = outcome
        return outcome

    def _worked_out(self, seen: _SeenDevice, expression: str, compiled, work, shared_answers: dict):
        """``work(compiled, value)`` for the device: on what the expression reads of it when that is known
        statically, remembered per such projection in ``shared_answers``; else on the whole device."""
        reads = self._static_reads(expression, compiled)
        if reads is None:
            return work(compiled, lambda: self._device_value(seen))
        shared = self._projection(seen, reads)
        found = shared_answers.get((expression, shared))
        if found is None:
            found = work(compiled, lambda: self._shared_value(seen.memory, shared))
            shared_answers[expression, shared] = found
        return found

    @staticmethod
    def _evaluate(compiled, value) -> bool | CELRuntimeError:
        try:
            return bool(compiled.evaluate_device(value()))
        except CELRuntimeError as err:
            return err

    def _static_reads(self, expression: str, compiled) -> frozenset | None:
        if expression not in self._reads:
            self._reads[expression] = static_reads(getattr(compiled, "root", None))
        return self._reads[expression]

    @staticmethod
    def _projection(seen: _SeenDevice, reads: frozenset) -> int:
        """The shared key of the device as an expression reading ``reads`` sees it.

        Keeps every entry that ``build_device`` files under a name read (a
        plain name and its ``driver/`` form land on the same one; the last
        wins, so the order stays), and why the whole device cannot be built,
        if it cannot: then every selector fails the same way.
        """
        memory, content, driver, allow_multiple = seen.memory, seen.content, seen.driver, seen.allow_multiple
        key = (content, reads)
        found = memory.projections.get(key)
        if found is None:
            failure, entries = SelectorEvaluator._layout(memory, content, driver)
            kept = [entry for entry in entries if entry[0] in reads]
            shape = (driver, allow_multiple, failure, tuple((entry[0][0], entry[1], entry[2]) for entry in kept))
            found = memory.shared_keys.get(shape)
            if found is None:
                found = memory.shared_keys[shape] = len(memory.shared_keys)
                memory.shared_devices[found] = failure if failure is not None else (
                    driver, {entry[1]: entry[3] for entry in kept if entry[0][0] == "attributes"},
                    {entry[1]: entry[3] for entry in kept if entry[0][0] == "capacity"}, allow_multiple)
            memory.projections[key] = found
        return found

    @staticmethod
    def _layout(memory: _Memory, content: int, driver: str) -> tuple:
        """Per device content: why the whole device cannot be built (or None), and its ``device_entries``."""
        entries = memory.entries[content]
        if content not in memory.failures:
            memory.failures[content] = SelectorEvaluator._build_failure(memory, driver, entries)
        return memory.failures[content], entries

    @staticmethod
    def _build_failure(memory: _Memory, driver: str, entries: tuple) -> str | None:
        """The error ``build_device`` gives for the whole device, or None, without building all of it.

        Only versions, attributes without a value and capacities that are not
        yet quantities can fail; building just those, in their order, fails
        first on the same one with the same message."""
        risky = tuple(entry for entry in entries if (
            _may_fail_to_build(entry[3], memory.list_values) if entry[0][0] == "attributes" else not isinstance(entry[3].value, Quantity)))
        if not risky:
            return None
        key = (driver, tuple((entry[0][0], entry[1], entry[2]) for entry in risky))
        if key not in memory.build_failures:
            try:
                build_device(driver, {entry[1]: entry[3] for entry in risky if entry[0][0] == "attributes"},
                             {entry[1]: entry[3] for entry in risky if entry[0][0] == "capacity"},
                             list_values=memory.list_values)
                failure = None
            except (CELRuntimeError, ValueError) as err:  # as _device_value turns them into CEL errors
                failure = str(err)
            memory.build_failures[key] = failure
        return memory.build_failures[key]

    @staticmethod
    def _shared_value(memory: _Memory, shared: int) -> dict:
        """The CEL value of a projected device; raises CELRuntimeError when the whole device has none."""
        built = memory.shared_built.get(shared)
        if built is None:
            made = memory.shared_devices[shared]
            built = CELRuntimeError(made) if isinstance(made, str) else build_device(*made, list_values=memory.list_values)
            memory.shared_built[shared] = built
        if isinstance(built, CELRuntimeError):
            raise CELRuntimeError(str(built))
        return built

    def explain(self, expression: str, driver: str, device: model.Device, allow_multiple: bool) -> list[dict]:
        """The parts of a selector that made it false on this device (see ``allocator.cel.explain``)."""
        seen = self._seen(self._current(), driver, device, allow_multiple)
        memory = seen.memory
        key = (expression, seen.content)
        found = memory.explained.get(key)
        if found is None:
            found = []
            compiled = self._compile(expression)
            if not isinstance(compiled, CELCompileError):
                found = self._worked_out(seen, expression, compiled, self._explain, memory.shared_explained)
            memory.explained[key] = found
        return found

    @staticmethod
    def _explain(compiled, value) -> list[dict]:
        # Deferred: only a selector that came out false on a shown device is explained (start-up).
        from allocator.cel.explain import explain_false

        try:
            return [part.to_dict() for part in explain_false(compiled, value())]
        except CELRuntimeError:
            return []  # the device cannot even be shown to CEL: the reason says so already

    def _first_false(self, seen: _SeenDevice, expressions, device_id, owner: str) -> int:
        """Index of the first selector that is false, -1 when all are true. Raises on CEL errors."""
        budget = deadline.current()
        for index, expression in enumerate(expressions):
            compiled = self._compile(expression)
            if isinstance(compiled, CELCompileError):
                raise AllocatorError(f"{owner}: selector #{index}: CEL compile error: {compile_error_text(compiled)}")
            if budget is None:
                outcome = self._evaluated(seen, expression, compiled)
            else:  # should the time budget run out here, it names the selector
                with deadline.located(selector=selector_label(owner, index, expression)):
                    outcome = self._evaluated(seen, expression, compiled)
            if outcome is not True:
                if outcome is False:
                    return index
                raise SelectorRuntimeError(owner, index, device_id, str(outcome), expression) from outcome
        return -1


def short_expression(expression: str, width: int = 80) -> str:
    """The expression on one line, cut to ``width`` characters."""
    text = " ".join(expression.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def selector_label(owner: str, index: int, expression: str) -> str:
    """``claim default/c selector #0 (device.driver == ...)``: a selector as a time budget's location names it."""
    return f"{owner} selector #{index} ({short_expression(expression)})"


class DeviceKeys:
    """Equal keys of two devices: every selector that reads at most ``reads`` (from ``joint_reads``; None:
    anything) answers, fails and is explained the same on both, as ``verdict`` and ``explain`` share answers.

    Bound to one memory, whose numbers the keys are: the evaluator may start a new one meanwhile.
    """

    __slots__ = ("memory", "_read_names")

    def __init__(self, memory: _Memory):
        self.memory = memory
        # (reads, map, driver) -> name -> whether ``reads`` has it: a cluster's devices repeat a few names
        self._read_names: dict[tuple, dict[str, bool]] = {}

    def key(self, reads: frozenset | None, driver: str, device: model.Device, allow_multiple: bool) -> tuple:
        memory = self.memory
        if reads is None:
            return "device", SelectorEvaluator._content_key(memory, driver, device, allow_multiple)
        found = memory.device_keys.get((id(device), allow_multiple))
        if found is not None and found[0] is device:
            return "projected", SelectorEvaluator._projection(
                _SeenDevice(memory, found[1], driver, device, allow_multiple), reads)
        return "projected", self._projected(reads, driver, device, allow_multiple)

    def _projected(self, reads: frozenset, driver: str, device: model.Device, allow_multiple: bool) -> int:
        """``_projection`` of a device not seen yet, worked out from the entries read and those that can fail
        to build alone, without the device's content key: the nodes of a cluster differ in serial numbers
        and addresses that no selector reads, so most devices are seen once, here, and never searched."""
        memory = self.memory
        kept, entries, risky = [], [], []
        list_values = memory.list_values
        read_names = self._read_names
        attribute_read = read_names.get((reads, "attributes", driver))
        if attribute_read is None:
            attribute_read = read_names[reads, "attributes", driver] = {}
        for name, a in device.attributes.items():
            read = attribute_read.get(name)
            if read is None:
                read = attribute_read[name] = _place("attributes", name, driver) in reads
            if a.version is None and a.versions is None and a.ints is None and a.bools is None \
                    and a.strings is None:  # one scalar, or nothing: what _may_fail_to_build says of it
                may_fail = a.int is None and a.bool is None and a.string is None
            else:
                may_fail = _may_fail_to_build(a, list_values)
            if read or may_fail:
                entry = ("attributes", name, _attribute_fields(a))
                if read:
                    kept.append((entry, a))
                    entries.append(entry)
                if may_fail:
                    risky.append((entry, a))
        capacity_read = read_names.get((reads, "capacity", driver))
        if capacity_read is None:
            capacity_read = read_names[reads, "capacity", driver] = {}
        for name, c in device.capacity.items():
            read = capacity_read.get(name)
            if read is None:
                read = capacity_read[name] = _place("capacity", name, driver) in reads
            unparsed = not isinstance(c.value, Quantity)
            if read or unparsed:
                entry = ("capacity", name, c.value)
                if read:
                    kept.append((entry, c))
                    entries.append(entry)
                if unparsed:
                    risky.append((entry, c))
        failure = None
        if risky:  # as ``_build_failure`` works it out, under the same key
            key = (driver, tuple(entry for entry, _ in risky))
            if key not in memory.build_failures:
                try:
                    build_device(driver, {entry[1]: v for entry, v in risky if entry[0] == "attributes"},
                                 {entry[1]: v for entry, v in risky if entry[0] == "capacity"},
                                 list_values=list_values)
                    memory.build_failures[key] = None
                except (CELRuntimeError, ValueError) as err:
                    memory.build_failures[key] = str(err)
            failure = memory.build_failures[key]
        shape = (driver, allow_multiple, failure, tuple(entries))
        found = memory.shared_keys.get(shape)
        if found is None:  # as ``_projection`` files a new one
            found = memory.shared_keys[shape] = len(memory.shared_keys)
            memory.shared_devices[found] = failure if failure is not None else (
                driver, {entry[1]: v for entry, v in kept if entry[0] == "attributes"},
                {entry[1]: v for entry, v in kept if entry[0] == "capacity"}, allow_multiple)
        return found


_PLACES: dict[tuple[str, str, str], tuple] = {}  # (map, name, driver) -> where build_device files it


def _place(kind: str, name: str, driver: str) -> tuple:
    found = _PLACES.get((kind, name, driver))
    if found is None:
        if len(_PLACES) >= 10_000:
            _PLACES.clear()
        found = _PLACES[kind, name, driver] = (kind, *split_name(name, driver))
    return found


# Bounds of a shared evaluator. A device costs about 2.8 KB here (its content key and entries, and its
# CEL value when a selector reads it whole) and is kept alive (another 2.7 KB as read); an answer about
# 150 bytes. 20,000 devices hold two clusters of
# 1,000 nodes with 8 devices each (~110 MB at most), 200,000 answers a few dozen selectors on them (~30 MB).
SHARED_MAX_DEVICES = 20_000
SHARED_MAX_ANSWERS = 200_000
MAX_COMPILED = 2_000  # expressions a bounded evaluator keeps compiled
_shared: dict[frozenset[str], SelectorEvaluator] = {}


def shared_evaluator(gates: frozenset[str]) -> SelectorEvaluator:
    """The process's evaluator for these CEL gates (the compile environment is all they change)."""
    found = _shared.get(gates)
    if found is None:
        found = _shared.setdefault(gates, SelectorEvaluator(gates, SHARED_MAX_DEVICES, SHARED_MAX_ANSWERS))
    found.forget_if_full()
    return found
