"""``record`` behaves as ``dataclass`` does: the same classes made both ways print, compare, hash, initialise
and fail alike (its repr, == and hash are shared functions, its __init__ made at first use)."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import math
import typing
from dataclasses import InitVar, dataclass, field
from typing import ClassVar

import pytest

from allocator.reading import records
from allocator.reading.records import record

SIGNATURE = "(a: 'int', b: 'list' = <factory>, c: 'InitVar[int]' = 3) -> None"  # Post's, below
BOTH = pytest.mark.parametrize("deco", [dataclass, record], ids=["dataclass", "record"])


def _classes(deco, field=field):
    @deco
    class Plain:
        """A mutable class with a hidden, uncompared field."""
        x: int = 0
        items: list = field(default_factory=list)
        note: float = field(default=0.0, repr=False, compare=False)

    @deco(frozen=True)
    class Frozen:
        """A frozen class: hashed on its compared fields and those marked hash=True."""
        a: str = ""
        b: float = 0.0
        c: int = field(default=0, compare=False)
        d: int = field(default=0, compare=False, hash=True)

    @deco
    class OwnEq:
        """Its own __eq__ stays; Python makes such a class unhashable."""
        x: int = 0

        def __eq__(self, other):
            return True

    @deco(frozen=True)
    class OwnHash:
        """Its own __hash__ stays."""
        x: int = 0

        def __hash__(self):
            return 7

    @deco
    class Post:
        """Required field, default factory, InitVar and __post_init__."""
        a: int
        b: list = field(default_factory=list)
        c: InitVar[int] = 3

        def __post_init__(self, c):
            self.d = c * 2

    class Sub(Post):
        pass

    @deco
    class SubRecord(Post):
        """Adds a field after its base's."""
        e: int = 5

    @deco(frozen=True)
    class SelfNamed:
        """A field named self, and one left out of __init__."""
        self: int = 1
        x: int = field(default=2, init=False)

    @deco(frozen=True)
    class FrozenSub(Frozen):
        e: int = 1

    class Loose(Frozen):
        pass

    return Plain, Frozen, OwnEq, OwnHash, Post, Sub, SubRecord, SelfNamed, FrozenSub, Loose


def _behaviour(deco, field=field) -> list:
    """What a program can see of the classes, in a form to compare between the two decorators."""
    Plain, Frozen, OwnEq, OwnHash, Post, Sub, SubRecord, SelfNamed, FrozenSub, Loose = _classes(deco, field)
    seen: list = []
    looped = Plain(1, [2])
    looped.items.append(looped)
    seen += [repr(looped), repr(Plain(1, [2], 5)), Plain(1, [2]) == Plain(1, [2], 5), Plain(1) != Plain(2),
             Plain.__hash__ is None, Plain(1).__eq__(3)]
    seen += [repr(Frozen("q", 1.5, 3, 4)), hash(Frozen("q", 1.5, 3, 4)) == hash(("q", 1.5, 4)),
             Frozen("q", 1.5, 1) == Frozen("q", 1.5, 2), Frozen("q") == Frozen("r")]
    with pytest.raises(dataclasses.FrozenInstanceError) as frozen:
        Frozen().a = "x"  # type: ignore[misc]
    seen.append(str(frozen.value))
    for target in (Frozen(), FrozenSub(), Loose()):
        for change in (lambda o: setattr(o, "a", "x"), lambda o: setattr(o, "other", 1),
                       lambda o: delattr(o, "a"), lambda o: delattr(o, "other")):
            try:
                change(target)
                seen.append(("done", vars(target)))
            except (dataclasses.FrozenInstanceError, AttributeError) as err:
                seen.append((type(err).__name__, str(err)))
    seen += [(c.__setattr__.__qualname__, c.__delattr__.__qualname__) for c in (Frozen, FrozenSub, Loose)]
    seen += [repr(FrozenSub("q", e=3)), hash(FrozenSub("q")) == hash(FrozenSub("q")), FrozenSub.__dataclass_params__.frozen]
    seen += [OwnEq(1) == OwnEq(2), OwnEq.__hash__ is None, hash(OwnHash())]
    nan = math.nan
    seen += [Plain(nan) == Plain(nan), Plain(nan) == Plain(float("nan"))]  # identity first, as in a tuple
    seen += [vars(Post(1, c=5)), vars(Sub(1)), vars(SubRecord(2, [1], 4, 6)), repr(SelfNamed(7)),
             Post.__init__.__qualname__.rsplit(".", 1)[-1], Post.__match_args__,
             # (a record's signature is its placeholder's, (*args, **kwargs), until its __init__ is compiled)
             str(inspect.signature(Post)) if deco is dataclass or records.COMPILE_AFTER < 2 else SIGNATURE,
             repr(dataclasses.replace(Post(1), a=9, c=1)), [f.name for f in dataclasses.fields(SubRecord)],
             # this module's own functions give what dataclasses' give
             repr(records.replace(Post(1), a=9, c=1)), [f.name for f in records.fields(SubRecord)],
             [(f.name, f.type, f.init, f.repr, f.compare, f.hash) for f in records.fields(Frozen)],
             records.is_dataclass(Plain), records.is_dataclass(Plain()), records.asdict(Plain(1, [2]))]
    seen += [repr(c.__dataclass_params__) for c in (Plain, Frozen, OwnEq, SelfNamed)]
    for bad in ((), (1, 2, 3, 4)):
        with pytest.raises(TypeError) as wrong:
            Post(*bad)
        seen.append(str(wrong.value))
    return seen


@BOTH
def test_a_frozen_class_cannot_write_its_own_setattr(deco):
    with pytest.raises(TypeError, match="Cannot overwrite attribute __setattr__ in class Own"):
        @deco(frozen=True)
        class Own:
            """Never made."""
            a: int = 1

            def __setattr__(self, name, value):
                pass


@BOTH
def test_a_frozen_class_cannot_have_a_mutable_base(deco):
    @deco
    class Base:
        """Mutable."""
        a: int = 1

    with pytest.raises(TypeError, match="cannot inherit frozen dataclass from a non-frozen one"):
        @deco(frozen=True)
        class Child(Base):
            """Never made."""


def test_a_record_without_docstring_is_named_without_inspect():
    """dataclass writes such a class its signature as its doc; a record's __init__ is not made yet, so its
    doc is the name and object's "()" (inspect, which tokenizes object's signature, is not asked)."""
    @record(frozen=True)
    class Bare:
        a: int = 1

    assert Bare.__doc__ == "Bare()"


@pytest.mark.parametrize("own_field", [False, True], ids=["dataclasses.field", "records.field"])
@pytest.mark.parametrize("compile_after", [records.COMPILE_AFTER, 1, 0])
def test_a_record_behaves_as_the_same_dataclass(monkeypatch, compile_after, own_field):
    """Its first objects made by the plain __init__, by its compiled one from the second, or all by it; its
    fields given with dataclasses' ``field`` or this module's."""
    monkeypatch.setattr(records, "COMPILE_AFTER", compile_after)
    made_as_dataclass = _behaviour(dataclass)
    made_as_record = _behaviour(record, records.field if own_field else field)
    assert made_as_record == made_as_dataclass
    assert made_as_record[0].endswith("Plain(x=1, items=[2, ...])")  # the loop printed as "...", the hidden field not


@BOTH
def test_a_field_without_default_after_one_with_is_refused_when_the_class_is_made(deco):
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
        @deco
        class Bad:
            """Never made."""
            a: int = 1
            b: int  # type: ignore[misc]


def test_a_records_init_is_compiled_after_its_first_objects_and_kept():
    @record
    class Lazy:
        """Not instantiated yet."""
        a: int = 0

    plain = Lazy.__init__
    assert [Lazy(a=n).a for n in range(records.COMPILE_AFTER)] == list(range(records.COMPILE_AFTER))
    assert Lazy.__init__ is plain
    assert Lazy(3).a == 3
    made = Lazy.__init__
    assert made is not plain  # dataclass's own, which every later object uses
    assert Lazy(4).a == 4 and Lazy.__init__ is made


def test_a_call_the_plain_init_cannot_bind_compiles_the_real_one():
    @record
    class Once:
        """Two fields."""
        a: int
        b: list = field(default_factory=list)

    plain = Once.__init__
    with pytest.raises(TypeError, match=r"Once.__init__\(\) got an unexpected keyword argument 'c'"):
        Once(1, c=2)  # type: ignore[call-arg]
    assert Once.__init__ is not plain
    assert Once(1).b == [] and Once(1).b is not Once(1).b


def test_the_plain_init_takes_what_the_compiled_one_takes():
    @record(frozen=True)
    class Shapes:
        """Positional, keyword-only, factory, InitVar, field out of __init__."""
        a: int
        b: str = "b"
        c: list = field(default_factory=list)
        d: int = field(default=4, init=False)
        e: dict = field(default_factory=dict, init=False)
        f: InitVar[int] = 6
        g: int = field(default=7, kw_only=True)

        def __post_init__(self, f):
            object.__setattr__(self, "h", f + 1)

    @dataclass(frozen=True)
    class Same:
        a: int
        b: str = "b"
        c: list = field(default_factory=list)
        d: int = field(default=4, init=False)
        e: dict = field(default_factory=dict, init=False)
        f: InitVar[int] = 6
        g: int = field(default=7, kw_only=True)

        def __post_init__(self, f):
            object.__setattr__(self, "h", f + 1)

    calls = [((1,), {}), ((1, "x", [2], 3), {"g": 9}), ((), {"a": 5, "f": 0}), ((1,), {"c": (1,)})]
    for args, kwargs in calls:
        assert vars(Shapes(*args, **kwargs)) == vars(Same(*args, **kwargs))
        assert list(vars(Shapes(*args, **kwargs))) == list(vars(Same(*args, **kwargs)))  # the order set
    assert Shapes.__init__.__qualname__.endswith("Shapes.__init__")


@BOTH
def test_a_mutable_default_is_refused(deco):
    with pytest.raises(ValueError, match="mutable default <class 'list'> for field a is not allowed"):
        @deco
        class Bad:
            """Never made."""
            a: list = []  # noqa: RUF012


def test_a_field_without_annotation_is_refused():
    with pytest.raises(TypeError, match="'a' is a field but has no type annotation"):
        @record
        class Bad:
            """Never made."""
            a = records.field(default=1)


def test_a_classvar_is_no_field():
    # (a string annotation is looked up in the class's module, as dataclass does: ClassVar is imported above)
    @record(frozen=True)
    class Kinds:
        """One field beside a class variable."""
        kind: ClassVar[str] = "k"
        a: int = 1

    assert [f.name for f in records.fields(Kinds)] == ["a"] == [f.name for f in dataclasses.fields(Kinds)]
    assert Kinds(2).kind == "k" and Kinds.__match_args__ == ("a",)


def test_without_eq_objects_compare_and_hash_by_identity():
    @record(frozen=True, eq=False)
    class Same:
        """Frozen, compared as objects."""
        a: int = 1

    one, other = Same(), Same()
    assert one != other and one == one and hash(one) == object.__hash__(one)
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.a = 2  # type: ignore[misc]


def test_other_options_are_made_by_dataclass_with_this_modules_fields():
    @record(order=True)
    class Ordered:
        """order=True is dataclass's."""
        a: int = 0
        b: list = records.field(default_factory=list, compare=False)

    assert Ordered(1) < Ordered(2) and Ordered(1, [1]) == Ordered(1, [2])
    assert Ordered().b == [] and Ordered().b is not Ordered().b


def test_replace_refuses_what_dataclasses_replace_refuses():
    @record
    class Shapes:
        """A field out of __init__ and an InitVar without default."""
        a: int = 1
        b: int = records.field(default=2, init=False)
        c: InitVar[int] = None  # type: ignore[assignment]

    @record
    class Needs:
        """An InitVar without default."""
        a: int
        c: InitVar[int]

        def __post_init__(self, c):
            pass

    for module in (dataclasses, records):
        with pytest.raises(ValueError, match="field b is declared with init=False"):
            module.replace(Shapes(), b=3)
        with pytest.raises(ValueError, match="InitVar 'c' must be specified with replace"):
            module.replace(Needs(1, 2), a=2)


def test_a_plain_dataclass_goes_through_this_modules_functions():
    @dataclass
    class Plain:
        a: int = 1

    assert records.is_dataclass(Plain) and not records.is_dataclass(int)
    assert [f.name for f in records.fields(Plain)] == ["a"]
    assert records.replace(Plain(), a=2) == Plain(2)


def _tuples(base):
    class Point(base):
        """A point, with a method."""
        x: int
        y: int = 0
        label: str = ""

        def norm(self) -> int:
            return abs(self.x) + abs(self.y)

    return Point


def test_a_named_tuple_is_typings():
    ours, theirs = _tuples(records.NamedTuple), _tuples(typing.NamedTuple)
    for cls in (ours, theirs):
        point = cls(3, -4)
        assert point == (3, -4, "") and point.norm() == 7 and point._replace(x=1) == (1, -4, "")
        assert isinstance(point, tuple) and tuple.__hash__(point) == hash((3, -4, ""))
    assert [repr(ours(1, label="a")), ours.__doc__, ours._fields, ours._field_defaults, ours.__qualname__,
            ours.__module__, ours.__bases__] == \
        [repr(theirs(1, label="a")), theirs.__doc__, theirs._fields, theirs._field_defaults,
         theirs.__qualname__, theirs.__module__, theirs.__bases__]
    with pytest.raises(TypeError, match="Non-default namedtuple field z cannot follow default field y"):
        class Bad(records.NamedTuple):
            y: int = 0
            z: int
    with pytest.raises(AttributeError, match="Cannot overwrite NamedTuple attribute _make"):
        class Worse(records.NamedTuple):
            a: int

            def _make(self):
                pass


def test_copies_are_copy_modules_copies():
    @record(frozen=True)
    class Leaf:
        """Frozen."""
        name: str = ""
        values: tuple = ()

    @record
    class Tree:
        """Mutable, with lists and dicts of records and an attribute that is no field."""
        leaves: list = records.field(default_factory=list)
        by_name: dict = records.field(default_factory=dict)
        anything: object = records.field(default=None, compare=False)

    class Other:
        """Not a record: copied by the copy module."""

        def __init__(self):
            self.items = [1, [2]]

    tree = Tree([Leaf("a", (1, 2))], {"b": Leaf("b")}, anything=Other())
    tree.note = ["kept"]  # set after __init__: copied as deepcopy copies it
    deep, theirs = records.deep_copy_of(tree), copy.deepcopy(tree)
    assert deep == theirs == tree and deep.note == theirs.note == ["kept"]
    assert deep.leaves is not tree.leaves and deep.leaves[0] is not tree.leaves[0] and deep.note is not tree.note
    assert deep.by_name["b"] is not tree.by_name["b"] and deep.anything is not tree.anything
    assert deep.anything.items == [1, [2]] and deep.anything.items[1] is not tree.anything.items[1]
    deep.leaves.append(Leaf("c"))
    assert len(tree.leaves) == 1
    shallow = records.copy_of(tree)
    assert shallow == copy.copy(tree) and shallow is not tree and shallow.leaves is tree.leaves
    leaf = records.copy_of(Leaf("x"))
    assert leaf == Leaf("x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        leaf.name = "y"  # type: ignore[misc]
