"""Loading and validating law packs. Every error names the file and the line."""

from __future__ import annotations

import datetime as dt
import os
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from . import changes
from .charges import parse_charges
from .clock import ALLOWED_COUNTING, HolidayRule
from .documents import parse_documents, parse_offices
from .errors import PackError, UnknownJurisdiction
from .facts import FactVocabulary
from .model import (
    Defect,
    Designation,
    InForce,
    Pack,
    Provision,
    ProvisionVersion,
    Role,
    ServiceMethod,
    Setting,
    Withdrawal,
)
from .observation import parse_observation
from .packschema import EFFECTS, PACK, VocabularyRef
from .procedure import parse_procedure
from .schema import Where
from .translations import LANGUAGES, read_translations
from .vocabulary import EVENTS, LOCAL_KINDS, READ_ONLY_STAFF_ROLES, SERVICE_METHODS
from .yamlsource import LineDict, LineList, read_yaml

PACKS_DIR = Path(__file__).resolve().parent / "packs"
FORMAT = 1
# The site's own packs: cities and counties added on this server (`dogcase city add`), read beside the shipped
# ones. DOGCASE_SITE_PACKS_DIR names the folder ("" for none); by default, packs/ in the server's var folder.
SITE_PACKS_ENV = "DOGCASE_SITE_PACKS_DIR"


def site_packs_dir() -> Path | None:
    """The folder of the site's own packs (it need not exist yet), or None when the server has none."""
    configured = os.environ.get(SITE_PACKS_ENV)
    if configured is not None:
        return Path(configured) if configured.strip() else None
    var = os.environ.get("DOGCASE_VAR_DIR") or PACKS_DIR.parents[2] / "var"
    return Path(var) / "packs"


def _plain(value: Any) -> Any:
    """YAML line-tracking containers to plain read-only Python values."""
    if isinstance(value, dict):
        return MappingProxyType({k: _plain(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_plain(v) for v in value)
    return value


def _in_force(raw: Any, default: InForce, where: Where) -> InForce:
    if raw is None:
        return default
    start = raw.get("from", default.start) if "from" in raw else default.start
    end = raw.get("until") if "until" in raw else default.end
    if start is not None and end is not None and not start < end:
        raise where.fail(f"in force from {start} must be before until {end}")
    return InForce(start, end)


def _display(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root.parent))
    except ValueError:
        return str(path)


def _declared_ids(raw: Any, key: str) -> list[str]:
    """The ids a pack declares under `key` (events, service_methods), read before the file is checked so that
    references to them check; a malformed entry is left to the schema."""
    items = raw.get(key) if isinstance(raw, dict) else None
    if not isinstance(items, list):
        return []
    return [i["id"] for i in items if isinstance(i, dict) and isinstance(i.get("id"), str)]


def read_pack(
    folder: Path, root: Path, facts: FactVocabulary, state: Pack | None = None, raw: Any = None
) -> Pack:
    """Read and check one pack's own file (references to other packs are checked by `Library`). A city pack
    is read with its state pack, whose facts, events and service methods it may use."""
    path = folder / "pack.yaml"
    display = _display(path, root)
    if raw is None:
        raw = read_yaml(path, display)
    top = Where(display, getattr(raw, "line", 1), "")
    state_events = tuple(state.events) if state else ()
    state_methods = tuple(state.service_methods) if state else ()
    # the events and service methods this pack may name: the shared ones, its state pack's and its own
    extended = {
        "event": state_events + tuple(_declared_ids(raw, "events")),
        "service_method": state_methods + tuple(_declared_ids(raw, "service_methods")),
    }
    with VocabularyRef.extended(**extended):
        PACK.check(raw, top)
    if raw["format"] != FORMAT:
        raise top.at("format", raw.line_of("format")).fail(f"this dogcase reads format {FORMAT}")
    jur = raw["jurisdiction"]
    jwhere = top.at("jurisdiction", raw.line_of("jurisdiction"))
    pack_id = jur["id"]
    if pack_id != folder.name:
        raise jwhere.at("id", jur.line_of("id")).fail(
            f"the jurisdiction id {pack_id!r} must match its folder name {folder.name!r}"
        )
    kind = jur["kind"]
    if kind in LOCAL_KINDS and not jur.get("layer_over"):
        raise jwhere.fail("a city pack must name the state pack it is read over (layer_over)")
    if kind == "state" and jur.get("layer_over"):
        raise jwhere.fail("a state pack is the floor; it has no layer_over")
    if kind == "state" and not raw["provisions"]:
        raise top.at("provisions", raw.line_of("provisions")).fail(
            "a state pack states the law: it needs at least one provision"
        )
    try:
        ZoneInfo(jur["timezone"])
    except (ZoneInfoNotFoundError, ValueError):
        raise jwhere.at("timezone", jur.line_of("timezone")).fail(
            f"unknown time zone {jur['timezone']!r}"
        ) from None
    default_in_force = _in_force(jur.get("in_force"), InForce(), jwhere)
    layer = "state" if kind == "state" else "city"
    if kind == "state" and "withdraws" in raw:
        raise top.at("withdraws", raw.line_of("withdraws")).fail(
            "withdraws is for a city pack: the state's steps are the floor"
        )
    vocabulary = (state.vocabulary if state and state.vocabulary else facts).extend(
        raw.get("facts"), raw.get("fact_values"), top, pack_id
    )
    events = _own_events(raw, top, state)
    service_methods = _own_service_methods(raw, top, state, pack_id)

    provisions: dict[str, Provision] = {}
    plist = raw["provisions"]
    for index, item in enumerate(plist):
        where = top.at("provisions", raw.line_of("provisions")).at(index, plist.line_of(index))
        pid = item["id"]
        if pid in provisions:
            first = provisions[pid].versions[0].line
            raise where.fail(f"provision id {pid!r} is used twice (first at line {first})")
        has_text, has_versions = "text" in item, "versions" in item
        if has_text == has_versions:
            raise where.fail("a provision needs either text (one version) or versions (a list), not both")
        common = {
            "pack": pack_id,
            "id": pid,
            "citation": item["citation"],
            "layer": layer,
            "heading": item.get("heading"),
            "quoted": item.get("quoted", True),
            "confirm": item.get("confirm"),
            "state_provision": item.get("state_provision"),
            "differs_from_state": item.get("differs_from_state"),
            "file": display,
        }
        if has_versions:
            for key in ("in_force", *EFFECTS):
                if key in item:
                    raise where.fail(f"{key!r} belongs inside each version when a provision has versions")
            sources = [(v, item["versions"].line_of(i)) for i, v in enumerate(item["versions"])]
        else:
            sources = [(item, where.line)]
        versions: list[ProvisionVersion] = []
        for vraw, vline in sources:
            vwhere = Where(display, vline, where.path)
            effect_kind = next((k for k in EFFECTS if k in vraw), None)
            if effect_kind == "deadline":
                d = vraw["deadline"]
                if d["counting"] not in ALLOWED_COUNTING[d["period"]["unit"]]:
                    raise Where(display, d.line_of("counting"), f"{where.path}.deadline.counting").fail(
                        f"unit {d['period']['unit']} cannot be counted with {d['counting']}; "
                        f"allowed: {', '.join(sorted(ALLOWED_COUNTING[d['period']['unit']]))}"
                    )
                if d.get("right") and d["who"] != "owner":
                    raise Where(display, d.line_of("right"), f"{where.path}.deadline.right").fail(
                        "right: true is for the owner's rights (a time to use a right, which lapses); "
                        f"this deadline is the {d['who']}'s"
                    )
            if effect_kind == "requirement" and "amounts" in vraw["requirement"]:
                r = vraw["requirement"]
                if "amount_usd" in r:
                    raise Where(display, r.line_of("amounts"), f"{where.path}.requirement.amounts").fail(
                        "a requirement has either amount_usd (one amount) or amounts (several), not both"
                    )
            if effect_kind in ("ground", "exemption"):
                when = vraw[effect_kind]["when"]
                vocabulary.check_condition(
                    when, Where(display, getattr(when, "line", vline), f"{where.path}.{effect_kind}.when")
                )
            element_lines: dict[str, int] = {}
            if effect_kind == "notice":
                elements = vraw["notice"]["elements"]
                for i, element in enumerate(elements):
                    line = elements.line_of(i) if isinstance(elements, LineList) else vline
                    element_lines[element["id"]] = line or 0
            version = ProvisionVersion(
                element_lines=MappingProxyType(element_lines),
                text=" ".join(vraw["text"].split()),
                in_force=_in_force(vraw.get("in_force"), default_in_force, vwhere),
                effect_kind=effect_kind,
                effect=_plain(vraw[effect_kind]) if effect_kind else None,
                line=vline or 0,
                effect_line=(
                    vraw.line_of(effect_kind) if effect_kind and isinstance(vraw, LineDict) else vline
                )
                or 0,
                **common,
            )
            for other in versions:
                if other.in_force.overlaps(version.in_force):
                    raise vwhere.fail(
                        f"versions of provision {pid!r} overlap: {other.in_force.describe()} "
                        f"(line {other.line}) and {version.in_force.describe()}"
                    )
            versions.append(version)
        versions.sort(key=lambda v: v.in_force.start or dt.date.min)
        provisions[pid] = Provision(pack_id, pid, tuple(versions))

    def ensure_provision(pid: str, where: Where) -> str:
        if pid not in provisions:
            raise where.fail(f"refers to provision {pid!r}, which this pack does not define")
        return f"{pack_id}:{pid}"

    roles: dict[str, Role] = {}
    for index, item in enumerate(raw.get("roles", ())):
        where = top.at("roles", raw.line_of("roles")).at(index, raw["roles"].line_of(index))
        if item["id"] in roles:
            raise where.fail(f"role {item['id']!r} is defined twice")
        roles[item["id"]] = Role(
            item["id"],
            item["label"],
            pack_id,
            item.get("description"),
            tuple(item.get("staff", ())),
            bool(item.get("appointed", False)),
        )

    designations: dict[str, Designation] = {}
    for index, item in enumerate(raw.get("designations", ())):
        where = top.at("designations", raw.line_of("designations")).at(
            index, raw["designations"].line_of(index)
        )
        if item["id"] in designations:
            raise where.fail(f"designation {item['id']!r} is defined twice")
        designations[item["id"]] = Designation(
            id=item["id"],
            label=item["label"],
            pack=pack_id,
            defined_by=ensure_provision(
                item["defined_by"], where.at("defined_by", item.line_of("defined_by"))
            ),
            state_counterpart=item.get("state_counterpart"),
            description=item.get("description"),
        )

    eligibilities: dict[str, Designation] = {}
    for index, item in enumerate(raw.get("eligibilities", ())):
        where = top.at("eligibilities", raw.line_of("eligibilities")).at(
            index, raw["eligibilities"].line_of(index)
        )
        if item["id"] in eligibilities or item["id"] in designations:
            raise where.fail(f"eligibility {item['id']!r} is defined twice (or is also a designation)")
        eligibilities[item["id"]] = Designation(
            id=item["id"],
            label=item["label"],
            pack=pack_id,
            defined_by=ensure_provision(
                item["defined_by"], where.at("defined_by", item.line_of("defined_by"))
            ),
            description=item.get("description"),
        )

    defects: list[Defect] = []
    seen_defects: set[str] = set()
    for index, item in enumerate(raw.get("defects", ())):
        where = top.at("defects", raw.line_of("defects")).at(index, raw["defects"].line_of(index))
        if item["id"] in seen_defects:
            raise where.fail(f"defect {item['id']!r} is listed twice")
        seen_defects.add(item["id"])
        keys = tuple(
            ensure_provision(p, where.at("provisions", item.line_of("provisions")))
            for p in item["provisions"]
        )
        defects.append(
            Defect(
                id=item["id"],
                pack=pack_id,
                provisions=keys,
                text=" ".join(item["text"].split()),
                reading=" ".join(item["reading"].split()),
                kind=item.get("kind", "defect"),
                applies=_in_force(item.get("applies"), InForce(), where),
            )
        )

    settings: dict[str, Setting] = {}
    for index, item in enumerate(raw.get("settings", ())):
        where = top.at("settings", raw.line_of("settings")).at(index, raw["settings"].line_of(index))
        if item["id"] in settings:
            raise where.fail(f"setting {item['id']!r} is listed twice")
        for_key = item.get("for")
        settings[item["id"]] = Setting(
            id=item["id"],
            pack=pack_id,
            what=" ".join(item["what"].split()),
            value=item.get("value"),
            for_provision=ensure_provision(for_key, where) if for_key else None,
            allowed=tuple(item.get("allowed", ())),
            label=" ".join(item.get("label", "").split()) or item["id"].replace("_", " ").capitalize(),
        )

    calendar = raw.get("calendar") or LineDict()
    cwhere = top.at("calendar", raw.line_of("calendar"))
    holiday_rules = _holiday_rules(
        calendar.get("holidays", ()), cwhere.at("holidays", None), provisions, pack_id
    )
    extra = _holiday_rules(
        calendar.get("extra_holidays", ()), cwhere.at("extra_holidays", None), provisions, pack_id
    )
    if kind in LOCAL_KINDS and "holidays" in calendar:
        raise cwhere.fail(
            "a city pack does not restate the state's holidays: use observes and extra_holidays"
        )
    if kind == "state" and "observes" in calendar:
        raise cwhere.fail("the state pack lists holidays; observes is for cities")
    cal_provision = calendar.get("provision")
    if cal_provision:
        ensure_provision(cal_provision, cwhere)

    withdraws: list[Withdrawal] = []
    for index, item in enumerate(raw.get("withdraws", ())):
        where = top.at("withdraws", raw.line_of("withdraws")).at(index, raw["withdraws"].line_of(index))
        if not item.get("steps") and not item.get("deadlines"):
            raise where.fail(
                "a withdrawal names the state steps (steps:) or deadlines (deadlines:) it withdraws"
            )
        withdraws.append(
            Withdrawal(
                pack=pack_id,
                provision=ensure_provision(
                    item["provision"], where.at("provision", item.line_of("provision"))
                ),
                reason=" ".join(item["reason"].split()),
                steps=tuple(item.get("steps", ())),
                deadlines=tuple(item.get("deadlines", ())),
                for_=tuple(item["for"]) if "for" in item else None,
                file=display,
                line=where.line or 0,
            )
        )

    procedure = ()
    if "procedure" in raw:
        with VocabularyRef.extended(**extended):  # records_if_method may name the pack's own methods
            procedure = parse_procedure(
                raw["procedure"],
                top.at("procedure", raw.line_of("procedure")),
                pack_id,
                layer,
                default_in_force,
            )

    charges = MappingProxyType({})
    if "charges" in raw:
        charges = parse_charges(
            raw["charges"], top.at("charges", raw.line_of("charges")), pack_id, ensure_provision
        )

    documents = ()
    if "documents" in raw:
        documents = parse_documents(
            raw["documents"], top.at("documents", raw.line_of("documents")), pack_id, layer
        )
    offices, letterhead = parse_offices(jur)
    rabies_observation = parse_observation(
        raw.get("rabies_observation"),
        pack_id=pack_id,
        where=top.at("rabies_observation", raw.line_of("rabies_observation")),
        roles={*roles, *(state.roles if state else ())},
        defects=seen_defects,
    )

    return Pack(
        rabies_observation=rabies_observation,
        documents=documents,
        offices=MappingProxyType(offices),
        letterhead=letterhead,
        procedure=procedure,
        vocabulary=vocabulary,
        events=MappingProxyType(events),
        event_order=_event_order(raw, top, provisions),
        service_methods=MappingProxyType(service_methods),
        withdraws=tuple(withdraws),
        id=pack_id,
        name=jur["name"],
        kind=kind,
        timezone=jur["timezone"],
        case_prefix=jur["case_prefix"],
        source=_plain(jur["source"]),
        layer_over=jur.get("layer_over"),
        provisions=MappingProxyType(provisions),
        roles=MappingProxyType(roles),
        designations=MappingProxyType(designations),
        eligibilities=MappingProxyType(eligibilities),
        charges=charges,
        defects=tuple(defects),
        settings=MappingProxyType(settings),
        holiday_rules=holiday_rules,
        observes=MappingProxyType(dict(calendar.get("observes", {}))),
        extra_holidays=extra,
        file=display,
        folder=str(folder),
        in_force=default_in_force,
        calendar_line=raw.line_of("calendar") if "calendar" in raw else None,
        floor_provision=(
            ensure_provision(
                jur["floor_provision"], jwhere.at("floor_provision", jur.line_of("floor_provision"))
            )
            if "floor_provision" in jur
            else None
        ),
    )


def _own_events(raw: Any, top: Where, state: Pack | None) -> dict[str, str]:
    """`events:` — the pack's own clock events, with the words every trace uses for them."""
    out: dict[str, str] = {}
    for index, item in enumerate(raw.get("events", ())):
        where = top.at("events", raw.line_of("events")).at(index, raw["events"].line_of(index))
        eid = item["id"]
        if eid in EVENTS:
            raise where.at("id", item.line_of("id")).fail(
                f"{eid!r} is already a shared event (vocabulary.EVENTS): use it as it is"
            )
        if state and eid in state.events:
            raise where.at("id", item.line_of("id")).fail(f"{eid!r} is already an event of {state.id}")
        if eid in out:
            raise where.fail(f"event {eid!r} is declared twice")
        out[eid] = " ".join(item["words"].split())
    return out


def _event_order(raw: Any, top: Where, provisions: Mapping[str, Any]) -> tuple:
    """`event_order:` — orderings of events the pack states beyond vocabulary.EVENT_ORDER."""
    out = []
    for index, item in enumerate(raw.get("event_order", ())):
        where = top.at("event_order", raw.line_of("event_order")).at(index, raw["event_order"].line_of(index))
        if item["event"] in item["not_before"]:
            raise where.fail(f"event {item['event']!r} cannot be ordered after itself")
        provision = item.get("provision")
        if provision is not None and provision not in provisions:
            raise where.at("provision", item.line_of("provision")).fail(
                f"no provision {provision!r} in this pack"
            )
        out.append((item["event"], tuple(item["not_before"]), provision, item.get("why")))
    return tuple(out)


def _own_service_methods(raw: Any, top: Where, state: Pack | None, pack_id: str) -> dict[str, ServiceMethod]:
    """`service_methods:` — ways of serving a notice beyond the shared ones, each with its label and the
    shared methods it is a form of (`form_of`: certified mail is mail), for the state floor comparison."""
    out: dict[str, ServiceMethod] = {}
    known = set(SERVICE_METHODS) | (set(state.service_methods) if state else set())
    for index, item in enumerate(raw.get("service_methods", ())):
        where = top.at("service_methods", raw.line_of("service_methods")).at(
            index, raw["service_methods"].line_of(index)
        )
        mid = item["id"]
        if mid in known:
            raise where.at("id", item.line_of("id")).fail(
                f"{mid!r} is already a service method: use it as it is"
            )
        if mid in out:
            raise where.fail(f"service method {mid!r} is declared twice")
        form_of = item.get("form_of", ())
        form_of = (form_of,) if isinstance(form_of, str) else tuple(form_of)
        for general in form_of:
            if general not in known:
                raise where.at("form_of", item.line_of("form_of")).fail(
                    f"form_of: {general!r} is not a shared service method; one of {', '.join(SERVICE_METHODS)}"
                )
        out[mid] = ServiceMethod(mid, " ".join(item["label"].split()), pack_id, form_of)
    return out


def _holiday_rules(
    items: Iterable[Any], where: Where, provisions: dict[str, Provision], pack_id: str
) -> tuple[HolidayRule, ...]:
    rules: list[HolidayRule] = []
    ids: set[str] = set()
    for index, item in enumerate(items):
        here = Where(where.file, getattr(item, "line", where.line), f"{where.path}[{index}]")
        if item["id"] in ids:
            raise here.fail(f"holiday {item['id']!r} is listed twice")
        ids.add(item["id"])
        rule = item["rule"]
        citation = ""
        if "provision" in item:
            if item["provision"] not in provisions:
                raise here.fail(f"refers to provision {item['provision']!r}, which this pack does not define")
            citation = provisions[item["provision"]].versions[-1].citation
        names = tuple((n["name"], n.get("from"), n.get("until")) for n in item.get("names", ()))
        in_force = item.get("in_force") or {}
        kwargs: dict[str, Any] = {}
        if "fixed" in rule:
            kwargs = {"kind": "fixed", "month": rule["fixed"]["month"], "day": rule["fixed"]["day"]}
            try:
                dt.date(2024, kwargs["month"], kwargs["day"])
            except ValueError:
                raise here.fail("the fixed date does not exist") from None
        elif "nth_weekday" in rule:
            r = rule["nth_weekday"]
            if not (1 <= r["month"] <= 12 and 0 <= r["weekday"] <= 6 and r["n"] in (1, 2, 3, 4, -1)):
                raise here.fail("nth_weekday needs month 1-12, weekday 0 (Monday)-6, n 1-4 or -1 (last)")
            kwargs = {"kind": "nth_weekday", "month": r["month"], "weekday": r["weekday"], "n": r["n"]}
        else:
            kwargs = {"kind": "after", "after": rule["after"]["holiday"], "after_days": rule["after"]["days"]}
            if rule["after"]["holiday"] not in ids:
                raise here.fail(
                    f"holiday {rule['after']['holiday']!r} must be listed before a holiday that follows it"
                )
        rules.append(
            HolidayRule(
                id=item["id"],
                name=item["name"],
                observed=item.get("observed", "none"),
                valid_from=in_force.get("from"),
                valid_until=in_force.get("until"),
                names=names,
                optional=item.get("optional_for_cities", False),
                citation=citation,
                **kwargs,
            )
        )
    return tuple(rules)


class Library:
    """All packs under a folder, checked together, and the jurisdictions they make."""

    def __init__(self, root: Path = PACKS_DIR, site: Path | None = None) -> None:
        """The packs under `root` (with its facts.yaml), and those under `site`, the server's own (a folder
        that does not exist holds none). A site pack is a city or county over a state pack of `root`."""
        from .jurisdiction import Jurisdiction

        self.root = Path(root)
        self.site = Path(site) if site is not None else None
        self.facts = FactVocabulary.load(
            self.root / "facts.yaml", _display(self.root / "facts.yaml", self.root)
        )
        self.packs: dict[str, Pack] = {}
        folders = _pack_folders(self.root)
        site_folders = _pack_folders(self.site) if self.site is not None and self.site.is_dir() else []
        shipped = {f.name for f in folders}
        for folder in site_folders:
            if folder.name in shipped:
                raise PackError(
                    _display(folder / "pack.yaml", self.site),
                    None,
                    f"a pack named {folder.name!r} is shipped with dogcase ({_display(self.root / folder.name, self.root)}); "
                    "a site's own pack needs another folder name",
                )
        home = {folder: self.root for folder in folders} | {folder: self.site for folder in site_folders}

        def home_of(folder: Path) -> Path:
            return home.get(folder, self.root)

        # state packs first: a city pack is read with its state pack (its facts, events, service methods)
        heads = {folder: _head(folder, home[folder]) for folder in home}
        for folder in sorted(home, key=lambda f: (heads[f][0] != "state", f.name)):
            kind, layer_over, raw = heads[folder]
            if folder in site_folders and kind == "state":
                raise PackError(
                    _display(folder / "pack.yaml", home[folder]),
                    None,
                    "a site's own pack is a city or a county (kind: city or county), layered over a shipped state pack",
                )
            state = None
            if kind in LOCAL_KINDS:
                state = self.packs.get(layer_over or "")
                if state is None or state.kind != "state":
                    raise PackError(
                        _display(folder / "pack.yaml", home[folder]),
                        None,
                        f"layer_over names {layer_over!r}, which is not a state pack here",
                    )
            pack = read_pack(folder, home[folder], self.facts, state, raw)
            if pack.id in self.packs:
                raise PackError(
                    pack.file, None, f"jurisdiction id {pack.id!r} is already {self.packs[pack.id].file}"
                )
            self.packs[pack.id] = pack
        self.packs = {p.id: p for p in sorted(self.packs.values(), key=lambda p: Path(p.folder).name)}
        prefixes: dict[str, Pack] = {}
        for pack in self.packs.values():
            other = prefixes.setdefault(pack.case_prefix, pack)
            if other is not pack:
                # two cities numbering cases alike would give two cases one number
                raise PackError(
                    pack.file,
                    None,
                    f"case_prefix {pack.case_prefix!r} is already the prefix of {other.id} ({other.file}); "
                    "each pack's case and incident numbers need their own prefix",
                )
        # the packs' own words in an owner's language (translations.py): the first pack to translate a text wins
        self.translations: dict[str, dict[str, str]] = {language: {} for language in LANGUAGES}
        for pack in self.packs.values():
            folder = Path(pack.folder)
            for language in LANGUAGES:
                for english, own in read_translations(folder, home_of(folder), language).items():
                    self.translations[language].setdefault(english, own)
        self.jurisdictions: dict[str, Jurisdiction] = {}
        for pack in self.packs.values():
            state = self.packs.get(pack.layer_over or "") if pack.kind in LOCAL_KINDS else None
            self.jurisdictions[pack.id] = Jurisdiction(pack, state, self.facts)

    def warnings(self) -> list[dict[str, str]]:
        """What `dogcase law check` reports without failing: a pack with no table tests (cases.yaml), a pack
        role that can act in a step but that no staff role acts as (nobody in the staff app could take it)."""
        out: list[dict[str, str]] = []
        for j in self.jurisdictions.values():
            out += j.document_warnings()
        for pack in self.packs.values():
            # a pack with no text of its own (a city on the state law alone) has nothing to test but the state's
            own_law = bool(pack.provisions or pack.procedure)
            if own_law and not (Path(pack.folder) / "cases.yaml").exists():
                out.append(
                    {
                        "pack": pack.id,
                        "file": pack.file,
                        "warning": "no cases.yaml next to pack.yaml: the pack has no table tests "
                        "(docs/law-packs.md, cases.yaml)",
                    }
                )
            used: set[str] = set(r for d in pack.procedure for r in d.roles)
            for provision in pack.provisions.values():
                for v in provision.versions:
                    if v.effect_kind == "authority":
                        used |= set(v.effect["roles"])
            for role in pack.roles.values():
                if role.id in used and not set(role.staff) - set(READ_ONLY_STAFF_ROLES):
                    out.append(
                        {
                            "pack": pack.id,
                            "file": pack.file,
                            "warning": f"role {role.id!r} ({role.label}) may act but no staff role that acts "
                            f"maps to it (staff: {list(role.staff)}): nobody in the staff app can take its steps",
                        }
                    )
        return out

    def get(self, jurisdiction_id: str):  # -> Jurisdiction
        try:
            return self.jurisdictions[jurisdiction_id]
        except KeyError:
            raise UnknownJurisdiction(jurisdiction_id, list(self.jurisdictions)) from None


def _pack_folders(root: Path) -> list[Path]:
    """The pack folders under `root` (a folder whose name starts with a dot is a pack being written)."""
    return sorted(
        p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".") and (p / "pack.yaml").exists()
    )


def _head(folder: Path, root: Path) -> tuple[str | None, str | None, Any]:
    """A pack's kind and layer_over (and its parsed file), read ahead to load state packs first; the full
    check comes with `read_pack`."""
    raw = read_yaml(folder / "pack.yaml", _display(folder / "pack.yaml", root))
    jur = raw.get("jurisdiction") if isinstance(raw, dict) else None
    if not isinstance(jur, dict):
        return None, None, raw
    kind, layer_over = jur.get("kind"), jur.get("layer_over")
    return (
        kind if isinstance(kind, str) else None,
        layer_over if isinstance(layer_over, str) else None,
        raw,
    )


@dataclass
class _Loaded:
    library: Library
    stamp: tuple  # changes.stamp of the files when they were read
    texts: dict[str, str]  # changes.law_texts: what was read
    refused: tuple | None = None  # the stamp of files found not to load (not tried again until written again)


_LOADED: dict[tuple[str, str], _Loaded] = {}
_LOCK = threading.Lock()


def _folders(root: str | None) -> tuple[Path, Path | None]:
    """The packs folder and the site's folder a call reads: the shipped packs and the site's own by default
    (worked out once for each value of the settings they come from: the library is asked for dozens of times
    a request); an explicit `root` alone."""
    if root:
        return Path(root), None
    settings = (PACKS_DIR, os.environ.get(SITE_PACKS_ENV), os.environ.get("DOGCASE_VAR_DIR"))
    if settings not in _DEFAULT_FOLDERS:
        _DEFAULT_FOLDERS[settings] = (PACKS_DIR, site_packs_dir())
    return _DEFAULT_FOLDERS[settings]


_DEFAULT_FOLDERS: dict[tuple[Path, str | None, str | None], tuple[Path, Path | None]] = {}


def _read(root: Path, site: Path | None) -> _Loaded:
    """The packs under `root` (and `site`) with the texts they were read from: read again if a file was
    written meanwhile."""
    for _ in range(3):
        before = changes.stamp(root, site)
        library = Library(root, site)
        texts = changes.law_texts(root, site)
        if changes.stamp(root, site) == before:
            break
    return _Loaded(library, before, texts)


def load_all(root: str | None = None) -> Library:
    """The packs shipped with dogcase and the site's own (or those under `root` alone), loaded once per
    process (`reload_if_changed` takes a newer version of the files)."""
    folder, site = _folders(root)
    key = (str(folder), str(site))
    loaded = _LOADED.get(key)
    if loaded is None:
        with _LOCK:
            loaded = _LOADED.get(key)
            if loaded is None:
                loaded = _LOADED[key] = _read(folder, site)
    return loaded.library


def loaded_texts(root: str | None = None) -> dict[str, str]:
    """The law files' texts the library in use was read from."""
    load_all(root)
    folder, site = _folders(root)
    return _LOADED[(str(folder), str(site))].texts


def forget_loaded() -> None:
    """Drop every library loaded (the next `load_all` reads the files)."""
    with _LOCK:
        _LOADED.clear()


@dataclass(frozen=True)
class Reload:
    """What `reload_if_changed` did: the library before and after (the same when the new files were refused),
    the changes in words, and the error of files that do not load."""

    before: Library
    after: Library
    changes: tuple[changes.Change, ...] = ()
    error: PackError | None = None


def reload_if_changed(root: str | None = None) -> Reload | None:
    """When a law file was written since the library in use was read: read the files again and, if they load,
    use them from now on (a request already running keeps the library it holds); if they do not, keep the
    library in use and say why. None when nothing was written (or files already refused are unchanged)."""
    folder, site = _folders(root)
    key = (str(folder), str(site))
    load_all(root)
    now = changes.stamp(folder, site)
    loaded = _LOADED[key]
    if now == loaded.stamp or now == loaded.refused:
        return None
    with _LOCK:
        loaded = _LOADED[key]
        if now == loaded.stamp or now == loaded.refused:
            return None
        try:
            fresh = _read(folder, site)
        except PackError as error:
            loaded.refused = now
            return Reload(loaded.library, loaded.library, (), error)
        _LOADED[key] = fresh
    return Reload(loaded.library, fresh.library, tuple(changes.what_changed(loaded.texts, fresh.texts)))
