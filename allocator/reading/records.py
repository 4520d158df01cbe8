"""``record``: a ``dataclasses.dataclass`` made without the ``dataclasses`` module.

A command that reads a one-node inventory spent about a quarter of its start-up
on ``dataclasses``: importing it (and ``inspect``, ``ast``, ``dis``,
``tokenize`` with it) and processing some hundred classes, each with source
text compiled for its methods. A record is the same class, made here:

- its fields are read from the class's annotations as ``dataclass`` reads
  them (bases' fields first, ``ClassVar`` left out, ``InitVar`` kept for
  ``__init__`` and ``__post_init__``), with the same checks (a mutable
  default, a field without default after one with, a frozen class over a
  mutable base, ...);
- ``__init__`` makes the class's first ``COMPILE_AFTER`` objects by reading
  the fields (``_Plan``: a command uses a fraction of the classes it imports,
  most a few times), then is compiled as ``dataclass`` writes it;
- ``repr``, ``==``, ``hash`` and a frozen class's ``__setattr__`` and
  ``__delattr__`` are functions shared by every record, reading the class's
  field names from tuples, and behave as the generated ones do.

``dataclasses``' own functions (``fields``, ``replace``, ``asdict``,
``is_dataclass``) take records: a record's ``__dataclass_fields__`` and
``__dataclass_params__`` are made as ``dataclass`` makes them the first time
something asks (importing ``dataclasses`` then). Code on a command's path uses
this module's ``field``, ``fields``, ``replace`` and ``is_dataclass``, which
read the record's own description and never import it.

Options are ``dataclass``'s: ``frozen``, ``eq``, ``repr``, ``kw_only`` here;
anything else (``order``, ``unsafe_hash``, ``slots``, ...) goes to
``dataclass`` itself. A class without a docstring gets ``Name()``
(``dataclass`` writes its signature, asking ``inspect``). Until a class's
``__init__`` is compiled, ``inspect.signature`` shows ``(*args, **kwargs)``.
It sits in ``reading``, the pipeline's first folder, so that every folder may
use it.
"""

from __future__ import annotations

import abc
import collections
import sys
from collections.abc import Callable, Mapping
from operator import attrgetter
from reprlib import recursive_repr
from types import MappingProxyType

from allocator.reading import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, NamedTuple, TypeVar, dataclass_transform, overload

    T = TypeVar("T")
else:
    # Without importing typing (start-up): overloads and dataclass_transform are for the type checker.
    def overload(function):
        return function

    def dataclass_transform(**_):
        return lambda function: function

__all__ = ["MISSING", "Field", "NamedTuple", "asdict", "copy_of", "deep_copy_of", "field", "fields", "is_dataclass",
           "record", "replace"]


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


class _Factory:
    """The default a parameter with a default factory shows (``dataclass``'s reads the same)."""
    __slots__ = ()

    def __repr__(self) -> str:
        return "<factory>"


MISSING: Any = _Missing()
_FACTORY: Any = _Factory()

# A field's kind, as dataclass tells its fields apart (ClassVars are not fields of a record at all).
_FIELD = "field"
_INITVAR = "initvar"

_EMPTY: Mapping[Any, Any] = MappingProxyType({})


class Field:
    """One field of a record, with ``dataclasses.Field``'s attributes (``MISSING`` being this module's)."""

    __slots__ = ("name", "type", "default", "default_factory", "init", "repr", "hash", "compare", "metadata",
                 "kw_only", "kind")

    def __init__(self, default: Any, default_factory: Any, init: bool, repr: bool, hash: bool | None,
                 compare: bool, metadata: Mapping[Any, Any] | None, kw_only: Any) -> None:
        self.name: str = ""
        self.type: Any = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.hash = hash
        self.compare = compare
        self.metadata = _EMPTY if not metadata else MappingProxyType(metadata)  # type: ignore[arg-type]
        self.kw_only = kw_only
        self.kind = _FIELD

    def __repr__(self) -> str:
        return (f"Field(name={self.name!r},type={self.type!r},default={self.default!r},"
                f"default_factory={self.default_factory!r},init={self.init!r},repr={self.repr!r},"
                f"hash={self.hash!r},compare={self.compare!r},metadata={self.metadata!r},"
                f"kw_only={self.kw_only!r},kind={self.kind!r})")


@overload
def field(*, default: T, init: bool = True, repr: bool = True, hash: bool | None = None, compare: bool = True,
          metadata: Mapping[Any, Any] | None = None, kw_only: bool = ...) -> T: ...


@overload
def field(  # noqa: F811 (the overloads: overload is typing's, for the type checker)
        *, default_factory: Callable[[], T], init: bool = True, repr: bool = True, hash: bool | None = None,
        compare: bool = True, metadata: Mapping[Any, Any] | None = None, kw_only: bool = ...) -> T: ...


@overload
def field(  # noqa: F811 (the overloads: overload is typing's, for the type checker)
        *, init: bool = True, repr: bool = True, hash: bool | None = None, compare: bool = True,
        metadata: Mapping[Any, Any] | None = None, kw_only: bool = ...) -> Any: ...


def field(  # noqa: F811 (the overloads: overload is typing's, for the type checker)
        *, default: Any = MISSING, default_factory: Any = MISSING, init: bool = True, repr: bool = True,
        hash: bool | None = None, compare: bool = True, metadata: Mapping[Any, Any] | None = None,
        kw_only: Any = MISSING) -> Any:
    """A record's field with options, as ``dataclasses.field`` (for records only: a plain dataclass wants
    ``dataclasses.field``)."""
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, hash, compare, metadata, kw_only)


class _Params:
    """What ``dataclass`` keeps as ``__dataclass_params__``, for a record."""

    __slots__ = ("init", "repr", "eq", "order", "unsafe_hash", "frozen", "kw_only")

    def __init__(self, repr: bool, eq: bool, frozen: bool, kw_only: bool) -> None:
        self.init, self.repr, self.eq, self.order, self.unsafe_hash = True, repr, eq, False, False
        self.frozen, self.kw_only = frozen, kw_only


# The options a record makes itself; any other goes to dataclass (rare here).
_OWN_OPTIONS = frozenset({"frozen", "eq", "repr", "kw_only", "init", "match_args"})


@overload
def record(cls: type[T], /) -> type[T]: ...


@overload
def record(  # noqa: F811 (the overloads: overload is typing's, for the type checker)
        *, frozen: bool = False, eq: bool = True, repr: bool = True, kw_only: bool = False,
        slots: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(field_specifiers=(field, Field))
def record(cls: Any = None, /, **options: Any) -> Any:  # noqa: F811 (the overloads above)
    """``@record`` or ``@record(frozen=True, ...)``: the class as ``dataclass`` would make it."""
    if cls is None:
        return lambda c: record(c, **options)
    if not _OWN_OPTIONS.issuperset(options) or not options.get("init", True) \
            or not options.get("match_args", True):
        return _as_dataclass(cls, options)
    frozen = bool(options.get("frozen", False))
    eq = bool(options.get("eq", True))
    want_repr = bool(options.get("repr", True))
    kw_only = bool(options.get("kw_only", False))
    if frozen:
        for name in ("__setattr__", "__delattr__"):
            if name in cls.__dict__:
                raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
    every = _read_fields(cls, kw_only)
    _check_bases(cls, frozen)
    _check_defaults(every)
    cls.__record_fields__ = every
    cls.__record_params__ = _Params(want_repr, eq, frozen, kw_only)
    cls.__dataclass_fields__ = _Described(cls, "__dataclass_fields__")
    cls.__dataclass_params__ = _Described(cls, "__dataclass_params__")
    names = tuple(f.name for f in every if f.kind is _FIELD)
    if "__init__" not in cls.__dict__:
        cls.__init__ = _deferred_init(cls)
        if not cls.__doc__:
            cls.__doc__ = f"{cls.__name__}()"
    if want_repr:
        cls.__printed__ = tuple(f.name for f in every if f.kind is _FIELD and f.repr)
        _set_new(cls, "__repr__", _repr)
    if eq:
        _set_eq_and_hash(cls, every, frozen)
    if frozen:
        _set_frozen(cls, names)
    _set_new(cls, "__match_args__", tuple(f.name for f in every if f.init and not f.kw_only))
    abc.update_abstractmethods(cls)
    return cls


def _read_fields(cls: type, kw_only: bool) -> tuple[Field, ...]:
    """The class's fields as dataclass collects them: its bases' (those described as records or dataclasses,
    the farthest first), then its own annotations in order, a name given again keeping its first place."""
    found: dict[str, Field] = {}
    for base in cls.__mro__[-1:0:-1]:
        for f in _own_description(base) or ():
            found[f.name] = f
    real_field = _dataclasses_field_type()
    # Without typing and dataclasses loaded no annotation can name ClassVar or InitVar: all are fields.
    plain = real_field is None and "typing" not in sys.modules
    annotations = cls.__dict__.get("__annotations__", {})
    for name, annotation in annotations.items():
        kind = _FIELD if plain else _kind_of(cls, annotation)
        default = getattr(cls, name, MISSING)
        if isinstance(default, Field):
            f = default
        elif real_field is not None and isinstance(default, real_field):
            f = _from_dataclasses(default)
        else:
            f = Field(default, MISSING, True, True, None, True, None, MISSING)
        if kind is None:  # a ClassVar: a class attribute, not a field
            if f.default_factory is not MISSING:
                raise TypeError(f"field {name} cannot have a default factory")
            continue
        f.name, f.type, f.kind = name, annotation, kind
        if f.kw_only is MISSING:
            f.kw_only = kw_only
        if kind is _FIELD and f.default is not MISSING and f.default.__class__.__hash__ is None:
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: "
                             "use default_factory")
        if f is default and name in cls.__dict__ or real_field is not None and isinstance(cls.__dict__.get(name),
                                                                                          real_field):
            if f.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
        found[name] = f
    for name, value in cls.__dict__.items():
        if isinstance(value, Field) and name not in annotations:
            raise TypeError(f"{name!r} is a field but has no type annotation")
    return tuple(found.values())


def _kind_of(cls: type, annotation: Any) -> str | None:
    """A field, an InitVar, or None for a ClassVar, as dataclass tells them apart. A string annotation (every
    module here has postponed annotations) is looked up by its first name in the class's module."""
    if isinstance(annotation, str):
        head = annotation.split("[", 1)[0].strip()
        module = sys.modules.get(cls.__module__)
        namespace = module.__dict__ if module is not None else {}
        prefix, _, name = head.rpartition(".")
        if prefix:
            owner = namespace.get(prefix.strip())
            annotation = getattr(owner, name.strip(), None) if owner is not None else None
        else:
            annotation = namespace.get(name)
    typing = sys.modules.get("typing")  # (a module that names ClassVar has imported typing)
    if typing is not None and (annotation is typing.ClassVar or getattr(annotation, "__origin__", None)
                               is typing.ClassVar):
        return None
    dataclasses = sys.modules.get("dataclasses")
    if dataclasses is not None and (annotation is dataclasses.InitVar or type(annotation) is dataclasses.InitVar):
        return _INITVAR
    return _FIELD


def _own_description(cls: type) -> tuple[Field, ...] | None:
    """The fields a class itself describes (a record's, or a plain dataclass's read as records' fields)."""
    own = cls.__dict__.get("__record_fields__")
    if own is not None:
        return own
    real = cls.__dict__.get("__dataclass_fields__")
    if real is None or isinstance(real, _Described):
        return None
    dataclasses = sys.modules["dataclasses"]
    return tuple(_from_dataclasses(f) for f in real.values() if f._field_type is not dataclasses._FIELD_CLASSVAR)


def _from_dataclasses(real: Any) -> Field:
    """A ``dataclasses.Field`` (one ``dataclasses.field`` wrote, or a dataclass base's) as a record's."""
    dataclasses = sys.modules["dataclasses"]

    def ours(value: Any) -> Any:
        return MISSING if value is dataclasses.MISSING else value

    f = Field(ours(real.default), ours(real.default_factory), real.init, real.repr, real.hash, real.compare,
              real.metadata, ours(real.kw_only))
    if real.name is not None:
        f.name, f.type = real.name, real.type
        f.kind = _INITVAR if real._field_type is dataclasses._FIELD_INITVAR else _FIELD
    return f


def _dataclasses_field_type() -> Any:
    """``dataclasses.Field`` if the module is loaded (a class body can hold one only then), else None."""
    dataclasses = sys.modules.get("dataclasses")
    return dataclasses.Field if dataclasses is not None else None


def _params_of(cls: type) -> Any:
    own = cls.__dict__.get("__record_params__")
    if own is not None:
        return own
    if "__dataclass_fields__" in cls.__dict__:
        return cls.__dict__["__dataclass_params__"]
    return None


def _check_bases(cls: type, frozen: bool) -> None:
    """dataclass's rule: frozen and mutable dataclasses do not inherit from one another."""
    bases = [p for p in (_params_of(b) for b in cls.__mro__[-1:0:-1]) if p is not None]
    if bases:
        if any(p.frozen for p in bases) and not frozen:
            raise TypeError("cannot inherit non-frozen dataclass from a frozen one")
        if not all(p.frozen for p in bases) and frozen:
            raise TypeError("cannot inherit frozen dataclass from a non-frozen one")


def _check_defaults(every: tuple[Field, ...]) -> None:
    """A field without default after one with: the error dataclass gives when the class is made."""
    seen_default = False
    for f in _init_order(every)[0]:
        if f.default is not MISSING or f.default_factory is not MISSING:
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")


def _init_order(every: tuple[Field, ...]) -> tuple[list[Field], list[Field]]:
    """The parameters of __init__ (InitVars too), as dataclass orders them: positional, then keyword-only."""
    return ([f for f in every if f.init and not f.kw_only], [f for f in every if f.init and f.kw_only])


class _Described:
    """A record's ``__dataclass_fields__`` or ``__dataclass_params__``: made as dataclass makes them when first
    asked for (by ``dataclasses.fields`` and the like), and then kept on the class in its place."""

    __slots__ = ("owner", "name")

    def __init__(self, owner: type, name: str) -> None:
        self.owner, self.name = owner, name

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        import dataclasses

        if self.name == "__dataclass_params__":
            p = self.owner.__record_params__  # type: ignore[attr-defined]
            try:
                value: Any = dataclasses._DataclassParams(  # type: ignore[attr-defined]
                    p.init, p.repr, p.eq, p.order, p.unsafe_hash, p.frozen)
            except TypeError:  # Python 3.12 on: match_args, kw_only, slots and weakref_slot too
                value = dataclasses._DataclassParams(  # type: ignore[attr-defined]
                    p.init, p.repr, p.eq, p.order, p.unsafe_hash, p.frozen, True, p.kw_only, False, False)
        else:
            value = {}
            for f in self.owner.__record_fields__:  # type: ignore[attr-defined]
                def theirs(v: Any) -> Any:
                    return dataclasses.MISSING if v is MISSING else v

                real = dataclasses.field(default=theirs(f.default), default_factory=theirs(f.default_factory),
                                         init=f.init, repr=f.repr, hash=f.hash, compare=f.compare,
                                         metadata=dict(f.metadata) or None, kw_only=f.kw_only)
                real.name, real.type = f.name, f.type
                real._field_type = (dataclasses._FIELD_INITVAR  # type: ignore[attr-defined]
                                    if f.kind is _INITVAR else dataclasses._FIELD)  # type: ignore[attr-defined]
                value[f.name] = real
        setattr(self.owner, self.name, value)
        return value


def _description(cls: type) -> tuple[Field, ...] | None:
    """The fields of a record class (or of a plain subclass of one), None for a class that is no record."""
    for klass in cls.__mro__:
        own = klass.__dict__
        if "__record_fields__" in own:
            return own["__record_fields__"]
        if "__dataclass_fields__" in own:
            return None
    return None


def fields(class_or_instance: Any) -> tuple[Any, ...]:
    """``dataclasses.fields``: a record's fields (this module's ``Field``s), a dataclass's its own."""
    cls = class_or_instance if isinstance(class_or_instance, type) else type(class_or_instance)
    every = _description(cls)
    if every is None:
        import dataclasses

        return dataclasses.fields(class_or_instance)
    return tuple(f for f in every if f.kind is _FIELD)


def is_dataclass(obj: Any) -> bool:
    """``dataclasses.is_dataclass``: a record or a dataclass, class or object."""
    cls = obj if isinstance(obj, type) else type(obj)
    return hasattr(cls, "__record_fields__") or hasattr(cls, "__dataclass_fields__")


def replace(obj: T, /, **changes: Any) -> T:
    """``dataclasses.replace``: a new object of the same class, the fields not named copied from ``obj``."""
    every = _description(type(obj))
    if every is None:
        import dataclasses

        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    for f in every:
        if not f.init:
            if f.name in changes:
                raise ValueError(f"field {f.name} is declared with init=False, it cannot be specified with replace()")
            continue
        if f.name not in changes:
            if f.kind is _INITVAR and f.default is MISSING:
                raise ValueError(f"InitVar {f.name!r} must be specified with replace()")
            if f.kind is _FIELD:
                changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)


# Values copy_of and deep_copy_of give back as they are (immutable).
_IMMUTABLE = frozenset({str, int, float, bool, type(None), bytes})
_PLAINLY: dict[type, bool] = {}  # record class -> copied attribute by attribute (no copy method of its own)


def _copied_plainly(cls: type) -> bool:
    found = _PLAINLY.get(cls)
    if found is None:
        found = _PLAINLY[cls] = (_description(cls) is not None and getattr(cls, "__copy__", None) is None
                                 and getattr(cls, "__deepcopy__", None) is None)
    return found


def copy_of(obj: T) -> T:
    """``copy.copy``: a record's new object with the same attribute values; anything else through ``copy``
    (imported then: a command that copies only records never loads it)."""
    if _copied_plainly(obj.__class__) and hasattr(obj, "__dict__"):
        new = object.__new__(obj.__class__)
        new.__dict__.update(obj.__dict__)  # (a frozen record's __setattr__ is not asked)
        return new
    import copy

    return copy.copy(obj)


def deep_copy_of(obj: T) -> T:
    """``copy.deepcopy`` of what the model's objects are made of (decoded JSON: records, lists, dicts and
    immutable values), without the copy module; anything else is copied by ``copy.deepcopy``. A value met twice
    is copied twice (deepcopy would copy it once): nothing here compares the objects of a copy by identity."""
    cls = obj.__class__
    if cls in _IMMUTABLE:
        return obj
    if cls is list:
        return [deep_copy_of(v) for v in obj]  # type: ignore[return-value]
    if cls is dict:
        return {k: deep_copy_of(v) for k, v in obj.items()}  # type: ignore[attr-defined, return-value]
    if cls is tuple:
        return tuple(deep_copy_of(v) for v in obj)  # type: ignore[attr-defined, return-value]
    if _copied_plainly(cls) and hasattr(obj, "__dict__"):
        new = object.__new__(cls)
        new.__dict__.update({k: deep_copy_of(v) for k, v in obj.__dict__.items()})
        return new
    import copy

    return copy.deepcopy(obj)


def asdict(obj: Any) -> dict[str, Any]:
    """``dataclasses.asdict`` (it takes records too)."""
    import dataclasses

    return dataclasses.asdict(obj)


def _as_dataclass(cls: Any, options: dict[str, Any]) -> Any:
    """A class with options a record does not make itself, made by dataclass (its fields given with this
    module's ``field`` turned into ``dataclasses.field``s first)."""
    import dataclasses

    for name, value in list(cls.__dict__.items()):
        if isinstance(value, Field):
            def theirs(v: Any) -> Any:
                return dataclasses.MISSING if v is MISSING else v

            setattr(cls, name, dataclasses.field(
                default=theirs(value.default), default_factory=theirs(value.default_factory), init=value.init,
                repr=value.repr, hash=value.hash, compare=value.compare, metadata=dict(value.metadata) or None,
                kw_only=theirs(value.kw_only)))
    return dataclasses.dataclass(cls, **options)


# How many objects of a class the plain __init__ (``_Plan``) makes before its compiled one is made: compiling
# one costs about what a few hundred plain calls cost more than compiled ones. A short command (a one-node
# allocate) makes most classes' objects a few times; a big inventory passes this at once.
COMPILE_AFTER = 100


def _deferred_init(cls: Any) -> Callable[..., None]:
    """An __init__ that makes the class's first objects as dataclass's would (``_Plan``), then compiles the
    class's real one (as dataclass writes it), puts it in its place and runs it; later objects go straight to
    the real one. A call the plan does not take as given (a missing, extra or repeated argument) compiles the
    real one at once, which then raises Python's own error."""
    plan: _Plan | None = None
    left = COMPILE_AFTER

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        nonlocal plan, left
        if left > 0:
            if plan is None:
                plan = _Plan(cls)
            left -= 1
            if plan.run(self, args, kwargs):
                return
        made = _compiled_init(cls)
        cls.__init__ = made
        made(self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _compiled_init(cls: Any) -> Callable[..., None]:
    """The class's __init__ as dataclass writes it: the parameters in order (a factory's default shown as
    ``<factory>``), each field assigned (``object.__setattr__`` for a frozen class), then ``__post_init__``
    with the InitVars."""
    every: tuple[Field, ...] = cls.__record_fields__
    positional, keyword_only = _init_order(every)
    frozen = cls.__record_params__.frozen
    self_name = "__dataclass_self__" if any(f.name == "self" for f in every) else "self"
    names: dict[str, Any] = {"__dataclass_factory__": _FACTORY, "__dataclass_object__": object}
    annotations: dict[str, Any] = {}

    def parameter(f: Field) -> str:
        annotations[f.name] = f.type
        if f.default is not MISSING:
            names[f"__dataclass_default_{f.name}__"] = f.default
            return f"{f.name}=__dataclass_default_{f.name}__"
        if f.default_factory is not MISSING:
            return f"{f.name}=__dataclass_factory__"
        return f.name

    parameters = [parameter(f) for f in positional]
    if keyword_only:
        parameters += ["*", *(parameter(f) for f in keyword_only)]
    lines = []
    for f in every:
        if f.kind is not _FIELD:
            continue
        if f.default_factory is not MISSING:
            names[f"__dataclass_make_{f.name}__"] = f.default_factory
            value = (f"__dataclass_make_{f.name}__() if {f.name} is __dataclass_factory__ else {f.name}"
                     if f.init else f"__dataclass_make_{f.name}__()")
        elif f.init:
            value = f.name
        else:
            continue
        lines.append(f"__dataclass_object__.__setattr__({self_name}, {f.name!r}, {value})" if frozen
                     else f"{self_name}.{f.name} = {value}")
    if hasattr(cls, "__post_init__"):
        lines.append(f"{self_name}.__post_init__({', '.join(f.name for f in every if f.kind is _INITVAR)})")
    body = "\n    ".join(lines or ["pass"])
    names["__name__"] = cls.__module__
    exec(f"def __init__({', '.join([self_name, *parameters])}):\n    {body}\n", names)  # noqa: S102
    made = names["__init__"]
    made.__qualname__ = f"{cls.__qualname__}.__init__"
    made.__annotations__ = {**annotations, "return": None}
    return made


class _Plan:
    """What the compiled __init__ of a class does, read from its fields: bind the arguments to the fields,
    assign each field (a default factory called when its argument is left out, a field left out of __init__
    only when it has a factory), in the order of the fields, then call ``__post_init__`` with the InitVars.
    A frozen class assigns with ``object.__setattr__``."""

    def __init__(self, cls: Any) -> None:
        every: tuple[Field, ...] = cls.__record_fields__
        positional, keyword_only = _init_order(every)
        self.positional = tuple(f.name for f in positional)
        self.parameters = frozenset(f.name for f in (*positional, *keyword_only))
        # the value of each parameter left out: (name, default or the factory marker), for parameters with one
        self.defaults = tuple((f.name, f.default if f.default is not MISSING else _FACTORY)
                              for f in (*positional, *keyword_only)
                              if f.default is not MISSING or f.default_factory is not MISSING)
        self.required = len(self.parameters) - len(self.defaults)
        # (name, from an argument, factory or None): what each field is set to, in field order
        steps = []
        for f in every:
            if f.kind is not _FIELD:
                continue
            factory = f.default_factory if f.default_factory is not MISSING else None
            if f.init:
                steps.append((f.name, True, factory))
            elif factory is not None:
                steps.append((f.name, False, factory))
        self.steps = tuple(steps)
        self.post_init = [f.name for f in every if f.kind is _INITVAR] if hasattr(cls, "__post_init__") else None
        self.assign = object.__setattr__ if cls.__record_params__.frozen else setattr
        # a field named self is a keyword the plain call cannot take: such a class compiles at once
        self.usable = "self" not in self.parameters

    def run(self, obj: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
        """Initialise ``obj`` as the compiled __init__ would; False (having done nothing) if the arguments do not
        bind as they are (the compiled one then raises its error)."""
        if not self.usable or len(args) > len(self.positional):
            return False
        values = dict(zip(self.positional, args, strict=False))  # fewer arguments than fields: the rest below
        for name, value in kwargs.items():
            if name in values or name not in self.parameters:
                return False
            values[name] = value
        if len(values) < len(self.parameters):
            for name, default in self.defaults:
                if name not in values:
                    values[name] = default
            if len(values) < len(self.parameters):
                return False  # a required argument is missing
        assign = self.assign
        for name, given, factory in self.steps:
            if given:
                value = values[name]
                if value is _FACTORY and factory is not None:
                    value = factory()
            else:
                value = factory()
            assign(obj, name, value)
        if self.post_init is not None:
            obj.__post_init__(*[values[name] for name in self.post_init])
        return True


def _set_eq_and_hash(cls: Any, every: tuple[Field, ...], frozen: bool) -> None:
    """``==`` over the compared fields, and dataclass's rule for the hash with eq=True and no unsafe_hash: a
    hash the class wrote stays; else a frozen class hashes its fields (those with hash=True, or compare=True
    when hash is unset) and a mutable one is unhashable. (Python sets __hash__ to None in the body of a class
    that writes __eq__ alone: not a hash of its own.)"""
    own_hash = cls.__dict__.get("__hash__", MISSING)
    explicit = not (own_hash is MISSING or (own_hash is None and "__eq__" in cls.__dict__))
    cls.__compared__ = _tuple_of([f.name for f in every if f.kind is _FIELD and f.compare])
    _set_new(cls, "__eq__", _eq)
    if not explicit:
        if frozen:
            cls.__hashed__ = _tuple_of([f.name for f in every
                                        if f.kind is _FIELD and (f.compare if f.hash is None else f.hash)])
            cls.__hash__ = _hash
        else:
            cls.__hash__ = None


def _frozen_error(message: str) -> Exception:
    import dataclasses

    return dataclasses.FrozenInstanceError(message)


def _set_frozen(cls: Any, names: tuple[str, ...]) -> None:
    """A frozen class's __setattr__ and __delattr__, as dataclass writes them: assigning or deleting a field, or
    any attribute of an object of the class itself (not of a subclass), raises FrozenInstanceError."""

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise _frozen_error(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise _frozen_error(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    for method in (__setattr__, __delattr__):
        method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
        setattr(cls, method.__name__, method)


def _set_new(cls: type, name: str, value: Any) -> None:
    if name not in cls.__dict__:
        setattr(cls, name, value)


def _tuple_of(names: list[str]) -> Any:
    """The fields' values as a tuple, as ``(self.a, self.b,)`` builds it."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


@recursive_repr()
def _repr(self: Any) -> str:
    return (self.__class__.__qualname__ + "("
            + ", ".join([f"{name}={getattr(self, name)!r}" for name in self.__class__.__printed__]) + ")")


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is self.__class__:
        compared = self.__class__.__compared__
        return compared(self) == compared(other)
    return NotImplemented


def _hash(self: Any) -> int:
    return hash(self.__class__.__hashed__(self))


# ``class Name(NamedTuple)`` without importing typing: typing.NamedTuple's class, made the way typing makes it.
_PROHIBITED = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults", "_make",
                         "_replace", "_asdict", "_source"})


class _NamedTupleMaker(type):
    """Makes ``class Name(NamedTuple)`` as typing does: ``collections.namedtuple`` of the annotated names, a
    value in the body its field's default (none after one with a default), the body's other attributes kept."""

    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> Any:
        if bases != (_NamedTupleBase,):
            raise TypeError("can only inherit from a NamedTuple type")
        annotations = namespace.get("__annotations__", {})
        with_default: list[str] = []
        for field_name in annotations:
            if field_name in namespace:
                with_default.append(field_name)
            elif with_default:
                raise TypeError(f"Non-default namedtuple field {field_name} cannot follow default field"
                                f"{'s' if len(with_default) > 1 else ''} {', '.join(with_default)}")
        made = collections.namedtuple(name, list(annotations), defaults=[namespace[n] for n in with_default],
                                      module=namespace["__module__"])
        made.__annotations__ = made.__new__.__annotations__ = dict(annotations)
        for key, value in namespace.items():
            if key in _PROHIBITED:
                raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
            if key not in ("__module__", "__name__", "__annotations__") and key not in made._fields:
                setattr(made, key, value)
        return made


_NamedTupleBase = type.__new__(_NamedTupleMaker, "NamedTuple", (), {})

if not TYPE_CHECKING:
    def NamedTuple(typename, fields=None, /, **kwargs):  # noqa: N802 (typing's name)
        """Only a base here (``class Name(NamedTuple)``); the functional form is typing's."""
        from typing import NamedTuple as made_by_typing

        return made_by_typing(typename, fields, **kwargs)

    NamedTuple.__mro_entries__ = lambda bases: (_NamedTupleBase,)
