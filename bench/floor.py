"""The hand-written floor for one fixed jurisdiction: Battle Lake, MN (§ 90.15 over Minn. Stat. 347.50-.565).

Plain Python with the law written out as `if`s, for the law in force on 2025-06-01. Each function returns
exactly what the engine returns for the same input, explanation and citations included:

- `classify_floor(facts)` == `j.classifier(DAY).run(facts)`: the same tuple of `DesignationResult`, with the
  same status, the same `Rule` objects matched / barring (the citations), and the same missing facts.
- `deadline_floor(events)` == `j.deadline("owner.request_hearing", events, on=DAY, designation="dangerous")`:
  an equal dict (entries, 645.15 traces, due date, set_by, rule, notes) for a case's designation, as the cases
  ask it (without one, the engine answers each designation on its own: they are set by different provisions).

Only constants come from the law packs, once, at import: the `Rule` and `Designation` objects of the compiled
classifier, the provision texts and the defect notes (the citations), and the holiday calendar as a table of
days. The counting (Minn. Stat. 645.15) and every condition are hand-coded here; nothing generic runs per call.

When the packs change, `bench/run.py` and tests/bench/test_floor_agrees.py say so: the floor must then be
brought up to date by hand.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from dogcase.law import library
from dogcase.law.errors import InputError
from dogcase.law.jurisdiction import EVENT_WORDS
from dogcase.law.rules import DesignationResult

JURISDICTION = "battle-lake-mn"
DAY = dt.date(2025, 6, 1)
_DAY_TEXT = DAY.isoformat()
DEADLINE = "owner.request_hearing"
DESIGNATION = "dangerous"

_J = library().get(JURISDICTION)
_C = _J.classifier(DAY)

# ------------------------------------------------------------------------------------ classification constants

_PD_KEYS = (
    # grounds: (a) bite = 0, 3, 6; (b) chase = 1, 4, 7; (c) propensity = 2, 5, 8
    "mn-statute:347.50.3.1",
    "mn-statute:347.50.3.2",
    "mn-statute:347.50.3.3",
    "battle-lake-mn:A.potentially_dangerous_dog.a",
    "battle-lake-mn:A.potentially_dangerous_dog.b",
    "battle-lake-mn:A.potentially_dangerous_dog.c",
    "battle-lake-mn:B.1.a",
    "battle-lake-mn:B.1.b",
    "battle-lake-mn:B.1.c",
)
_D_KEYS = (
    # grounds: SBH to a human = 0, 3, 6; killed a domestic animal = 1, 4; killed or SBH to one (C)(1)(b) = 7;
    # after notice of potentially dangerous = 2, 5, 8
    "mn-statute:347.50.2.1",
    "mn-statute:347.50.2.2",
    "mn-statute:347.50.2.3",
    "battle-lake-mn:A.dangerous_dog.a",
    "battle-lake-mn:A.dangerous_dog.b",
    "battle-lake-mn:A.dangerous_dog.c",
    "battle-lake-mn:C.1.a",
    "battle-lake-mn:C.1.b",
    "battle-lake-mn:C.1.c",
)
_X_KEYS = (
    # exemptions of both designations: law enforcement dog = 0, 7; trespass/tort = 1, 4; provoking = 2, 5;
    # crime = 3, 6
    "mn-statute:347.51.4",
    "mn-statute:347.51.5.a",
    "mn-statute:347.51.5.b",
    "mn-statute:347.51.5.c",
    "battle-lake-mn:F.1",
    "battle-lake-mn:F.2",
    "battle-lake-mn:F.3",
    "battle-lake-mn:G",
)

# 347.51 subd. 5 bars a dangerous declaration only: a potentially dangerous dog's exemptions in Battle Lake are
# subd. 4 and § 90.15 (F), (G): law enforcement dog = 0, 4; trespass/tort = 1; provoking = 2; crime = 3
_PD_X_KEYS = (
    "mn-statute:347.51.4",
    "battle-lake-mn:F.1",
    "battle-lake-mn:F.2",
    "battle-lake-mn:F.3",
    "battle-lake-mn:G",
)


def _check_shape() -> None:
    ids = tuple(d.id for d in _C.designations)
    if ids != ("potentially_dangerous", "dangerous"):
        raise RuntimeError(f"bench/floor.py is out of date: designations are now {ids}")
    for rules, keys in zip(_C.rules_by_designation, (_PD_KEYS + _PD_X_KEYS, _D_KEYS + _X_KEYS), strict=True):
        got = tuple(r.key for r in rules)
        if got != keys:
            raise RuntimeError(f"bench/floor.py is out of date: the rules are now {got}")


_check_shape()
_D_PD, _D_D = _C.designations
_RS_PD, _RS_D = _C.rules_by_designation


def _table(rules, groups):
    """matched/barred tuple for every bit mask of the groups that apply (group i = bit 1 << i)."""
    out = []
    for mask in range(1 << len(groups)):
        on = {i for g, members in enumerate(groups) if mask >> g & 1 for i in members}
        out.append(tuple(rules[i] for i in sorted(on)))
    return tuple(out)


_PD_MATCHED = _table(_RS_PD, ((0, 3, 6), (1, 4, 7), (2, 5, 8)))
_D_MATCHED = _table(_RS_D, ((0, 3, 6), (1, 4), (7,), (2, 5, 8)))
_PD_BARRED = _table(_RS_PD, ((9, 13), (10,), (11,), (12,)))
_D_BARRED = _table(_RS_D, ((9, 16), (10, 13), (11, 14), (12, 15)))

_HUMAN_OR_ANIMAL = frozenset({"human", "domestic_animal"})
_OFF_OWNER_PROPERTY = frozenset({"public", "private_other"})
_SBH_OR_WORSE = frozenset({"substantial_bodily_harm", "great_bodily_harm", "death"})
_ON_PREMISES = frozenset({"trespass_on_owner_premises", "tort_on_owner_premises"})
_PROVOKING = frozenset({"provoking", "tormenting", "abusing", "assaulting", "repeatedly_provoked_in_past"})
_CRIME = frozenset({"committing_crime", "attempting_crime"})


def classify_floor(facts):
    """Battle Lake on 2025-06-01, written out by hand. Values: 2 true, 1 unknown (not given), 0 false."""
    get = facts.get
    bit = get("bit")
    provoked = get("provoked")
    victim = get("victim")
    place = get("place")
    injury = get("injury")
    conduct = get("victim_conduct")
    chased = get("chased_or_approached")
    attitude = get("apparent_attitude_of_attack")
    propensity = get("known_propensity")
    police = get("law_enforcement_dog")
    was_pd = get("previously_potentially_dangerous")
    had_notice = get("owner_had_notice_of_potentially_dangerous")
    aggressive = get("aggressive")
    attacked = get("attacked")
    endangered = get("endangered_safety")

    unprovoked = 1 if provoked is None else (0 if provoked else 2)
    b = 1 if bit is None else (2 if bit else 0)
    human = 1 if victim is None else (2 if victim == "human" else 0)
    animal = 1 if victim is None else (2 if victim == "domestic_animal" else 0)
    off_premises = 1 if place is None else (2 if place in _OFF_OWNER_PROPERTY else 0)

    # exemptions (347.51 subd. 4 and 5; § 90.15 (F), (G)) bar both designations
    x_police = 1 if police is None else (2 if police else 0)
    if conduct is None:
        c_premises = c_provoking = c_crime = 1
    else:
        c_premises = 0 if _ON_PREMISES.isdisjoint(conduct) else 2
        c_provoking = 0 if _PROVOKING.isdisjoint(conduct) else 2
        c_crime = 0 if _CRIME.isdisjoint(conduct) else 2
    x_premises = min(human, c_premises)
    x_provoking = min(human, c_provoking)
    x_crime = min(human, c_crime)
    x = max(x_police, x_premises, x_provoking, x_crime)
    x_mask = (x_police == 2) | (x_premises == 2) << 1 | (x_provoking == 2) << 2 | (x_crime == 2) << 3

    # potentially dangerous: (a) unprovoked bite, (b) chase in an attitude of attack, (c) known propensity
    victim_pd = 1 if victim is None else (2 if victim in _HUMAN_OR_ANIMAL else 0)
    pd_bite = min(b, unprovoked, victim_pd)
    ch = 1 if chased is None else (2 if chased else 0)
    at = 1 if attitude is None else (2 if attitude else 0)
    pd_chase = min(ch, at, unprovoked, human, off_premises)
    pd_prop = 1 if propensity is None else (2 if propensity else 0)
    g = max(pd_bite, pd_chase, pd_prop)
    if g == 0:
        pd_status = "not_eligible"
    elif x == 2:
        pd_status = "barred"
    elif g == 2 and x == 0:
        pd_status = "eligible"
    else:
        pd_status = "undetermined"
    pd_missing = ()
    if pd_status == "undetermined":
        m = []
        if g != 2:
            if pd_bite == 1:
                if b == 1:
                    m.append("bit")
                if unprovoked == 1:
                    m.append("provoked")
                if victim_pd == 1:
                    m.append("victim")
            if pd_chase == 1:
                if ch == 1:
                    m.append("chased_or_approached")
                if at == 1:
                    m.append("apparent_attitude_of_attack")
                if unprovoked == 1 and "provoked" not in m:
                    m.append("provoked")
                if human == 1 and "victim" not in m:
                    m.append("victim")
                if off_premises == 1:
                    m.append("place")
            if pd_prop == 1:
                m.append("known_propensity")
        _exemption_missing(m, x_police, x_premises, x_provoking, x_crime, human, conduct)
        pd_missing = tuple(m)
    pd = DesignationResult(
        _D_PD,
        pd_status,
        _PD_MATCHED[(pd_bite == 2) | (pd_chase == 2) << 1 | (pd_prop == 2) << 2],
        _PD_BARRED[x_mask],
        pd_missing,
        _RS_PD,
    )

    # dangerous: SBH to a human; killed a domestic animal ((C)(1)(b): or SBH to one) off the owner's
    # property; or it attacks after the owner had notice that it is potentially dangerous
    sbh = 1 if injury is None else (2 if injury in _SBH_OR_WORSE else 0)
    death = 1 if injury is None else (2 if injury == "death" else 0)
    d_human = min(unprovoked, human, sbh)
    d_killed = min(unprovoked, animal, death, off_premises)
    d_animal_sbh = min(animal, sbh, unprovoked, off_premises)
    p = 1 if was_pd is None else (2 if was_pd else 0)
    n = 1 if had_notice is None else (2 if had_notice else 0)
    a = 1 if aggressive is None else (2 if aggressive else 0)
    ak = 1 if attacked is None else (2 if attacked else 0)
    en = 1 if endangered is None else (2 if endangered else 0)
    act = max(b, ak, en)
    d_again = min(p, n, a, act)
    g = max(d_human, d_killed, d_again, d_animal_sbh)
    if g == 0:
        d_status = "not_eligible"
    elif x == 2:
        d_status = "barred"
    elif g == 2 and x == 0:
        d_status = "eligible"
    else:
        d_status = "undetermined"
    d_missing = ()
    if d_status == "undetermined":
        m = []
        if g != 2:
            if d_human == 1:
                if unprovoked == 1:
                    m.append("provoked")
                if human == 1:
                    m.append("victim")
                if sbh == 1:
                    m.append("injury")
            if d_killed == 1:
                if unprovoked == 1 and "provoked" not in m:
                    m.append("provoked")
                if animal == 1 and "victim" not in m:
                    m.append("victim")
                if death == 1 and "injury" not in m:
                    m.append("injury")
                if off_premises == 1:
                    m.append("place")
            if d_again == 1:
                if p == 1:
                    m.append("previously_potentially_dangerous")
                if n == 1:
                    m.append("owner_had_notice_of_potentially_dangerous")
                if a == 1:
                    m.append("aggressive")
                if act == 1:
                    if b == 1:
                        m.append("bit")
                    if ak == 1:
                        m.append("attacked")
                    if en == 1:
                        m.append("endangered_safety")
            if d_animal_sbh == 1:  # (C)(1)(b) comes 8th in rule order, after the state's 347.50 subd. 2(3)
                for name, value in (("victim", animal), ("injury", sbh), ("provoked", unprovoked)):
                    if value == 1 and name not in m:
                        m.append(name)
                if off_premises == 1 and "place" not in m:
                    m.append("place")
        _exemption_missing(m, x_police, x_premises, x_provoking, x_crime, human, conduct)
        d_missing = tuple(m)
    d = DesignationResult(
        _D_D,
        d_status,
        _D_MATCHED[(d_human == 2) | (d_killed == 2) << 1 | (d_animal_sbh == 2) << 2 | (d_again == 2) << 3],
        _D_BARRED[x_mask],
        d_missing,
        _RS_D,
    )
    return (pd, d)


def _exemption_missing(m, x_police, x_premises, x_provoking, x_crime, human, conduct):
    if x_police == 1:
        m.append("law_enforcement_dog")
    if x_premises == 1 or x_provoking == 1 or x_crime == 1:
        if human == 1 and "victim" not in m:
            m.append("victim")
        if conduct is None:
            m.append("victim_conduct")


# ------------------------------------------------------------------------------------------ deadline constants

_VERSIONS = {
    v.key: v for v in _J.all_versions() if v.effect_kind == "deadline" and v.effect["id"] == DEADLINE
}
_STATE_KEY = "mn-statute:347.541.1"
_CITY_PD_KEY, _CITY_D_KEY, _CITY_H_KEY = (
    "battle-lake-mn:B.2.b",
    "battle-lake-mn:C.2.b",
    "battle-lake-mn:H.deadline",
)
if tuple(_VERSIONS) != (_STATE_KEY, _CITY_PD_KEY, _CITY_D_KEY, _CITY_H_KEY):
    raise RuntimeError(f"bench/floor.py is out of date: {DEADLINE} is now set by {tuple(_VERSIONS)}")
for _v in _VERSIONS.values():
    if not (
        _v.in_force.contains(DAY) and dict(_v.effect["period"]) == {"amount": 14, "unit": "calendar_days"}
    ):
        raise RuntimeError(f"bench/floor.py is out of date: {_v.key} changed")
_STATE = _VERSIONS[_STATE_KEY]
_CITY = [_VERSIONS[k] for k in (_CITY_PD_KEY, _CITY_D_KEY, _CITY_H_KEY)]
_CITY_FROM = _CITY[0].in_force.start.isoformat()
_WHAT = _VERSIONS[_CITY_D_KEY].effect["what"]  # the city's words for the designation (what_for)
_STATE_TEXT_NOTE = "dogcase's restatement of the statute from the stored facts, not the enacted words"
_NOTES = [
    d
    for wanted in (
        "statute-text-not-stored",
        "347541-dangerous-only",
        "C2b-prior-pdd-hearing-omitted",
        "hearing-request-date-of-notice-vs-receipt",
        "J1-seizure-wait-counting",
        "city-holiday-choices-not-in-source",
    )
    for d in _J.defects
    if d.id == wanted
]
_EVENT_ORDER = (
    "incident classification declaration notice_date notice_sent notice_received hearing_request_received "
    "hearing_closed decision_received seizure impoundment death transfer "
    "dog_unconfined_or_attack lease_start registration_issued"
).split()
_EVENT_NAMES = frozenset(_EVENT_ORDER)
_TZ = ZoneInfo("America/Chicago")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = ("", "January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")  # fmt: skip
_DAYS_14 = dt.timedelta(days=14)
_ONE_DAY = dt.timedelta(days=1)
_MIN, _MAX = dt.date(1900, 1, 1), dt.date(2200, 12, 31)

# the city's legal holidays (645.44 subd. 5 with the city's choices), as a table: day -> why it is a holiday
_HOLIDAYS: dict[dt.date, str] = {}
_HOLIDAY_YEARS: set[int] = set()


def _holiday_year(year: int) -> None:
    for day, holiday in _J.calendar.holidays(year).items():
        _HOLIDAYS[day] = holiday.describe()
    _HOLIDAY_YEARS.add(year)


for _year in range(2015, 2041):
    _holiday_year(_year)


def _date(d):
    return f"{_WEEKDAYS[d.weekday()]} {d.day} {_MONTHS[d.month]} {d.year}"


def _time(t):
    h = t.hour
    sec = f":{t.second:02d}" if t.second or t.microsecond else ""
    return f"{h % 12 or 12}:{t.minute:02d}{sec} {'a.m.' if h < 12 else 'p.m.'} {t.tzname()} on {_date(t)}"


def _fourteen_days(raw, name, counted):
    """Minn. Stat. 645.15 for 14 days: (due date, trace)."""
    if isinstance(raw, dt.datetime):
        if raw.tzinfo is None or raw.utcoffset() is None:
            raise InputError(f"events.{name}", "instant must be timezone-aware")
        local = raw.astimezone(_TZ)
        day = local.date()
        trace = [f"{_time(local)} is on {_date(day)}"]
    else:
        day = raw
        trace = []
    if not _MIN <= day <= _MAX:
        raise InputError(
            f"events.{name}", f"trigger {day.isoformat()} is outside the supported range 1900-2200"
        )
    last = day + _DAYS_14
    trace.append(f"14 days after {_date(day)} ({counted}, Minn. Stat. 645.15) is {_date(last)}")
    due = last
    reasons = []
    while True:
        if due.year not in _HOLIDAY_YEARS:
            _holiday_year(due.year)
        if due.weekday() >= 5:
            reasons.append(f"{_date(due)} is a weekend day")
        elif due in _HOLIDAYS:
            reasons.append(_HOLIDAYS[due])
        else:
            break
        due += _ONE_DAY
    if reasons:
        joined = reasons[0] if len(reasons) == 1 else "; ".join(reasons[:-1]) + "; and " + reasons[-1]
        trace.append(f"{joined}: the period runs to {_date(due)} (Minn. Stat. 645.15)")
    return due, trace


def _cite_state():
    v = _STATE
    return {
        "provision": v.key,
        "citation": v.citation,
        "text": v.text,
        "layer": "state",
        "in_force": {"from": None, "until": None},
        "quoted": False,
        "text_note": _STATE_TEXT_NOTE,
    }


def _cite_city(v):
    return {
        "provision": v.key,
        "citation": v.citation,
        "text": v.text,
        "layer": "city",
        "in_force": {"from": _CITY_FROM, "until": None},
    }


def _entry(cite, trigger, raw, due, trace):
    entry = {
        "provision": cite,
        "trigger": trigger,
        "period": {"amount": 14, "unit": "calendar_days"},
        "counting": "mn_645_15",
        "kind": "due",
    }
    if due is None:
        entry["status"] = "undetermined"
        entry["reason"] = f"the date of {EVENT_WORDS[trigger]} is not given"
        entry["value"] = None
    else:
        entry["status"] = "determined"
        entry["law_as_of"] = _DAY_TEXT
        entry["trigger_value"] = raw.isoformat()
        entry["value"] = due.isoformat()
        entry["trace"] = list(trace)
    return entry


def deadline_floor(events):
    """When the owner of a dangerous dog must request a hearing in Battle Lake (on 2025-06-01): 14 days from
    the date of the notice (347.541 subd. 1 and 3; § 90.15 (C)(2)(b)) and 14 days from its receipt (§ 90.15
    (H)), each counted under 645.15; the owner gets the later date."""
    for name in events:
        if name not in _EVENT_NAMES:
            raise InputError(f"events.{name}", "unknown event; known events: " + ", ".join(_EVENT_ORDER))
    sent = events.get("notice_date")
    received = events.get("notice_received")
    if sent is None:
        sent_due = sent_trace = None
    else:
        sent_due, sent_trace = _fourteen_days(sent, "notice_date", "the day of the notice is not counted")
    if received is None:
        received_due = received_trace = None
    else:
        received_due, received_trace = _fourteen_days(
            received, "notice_received", "the day of receipt of the notice is not counted"
        )
    _pd, d, h = _CITY
    entries = [
        _entry(_cite_state(), "notice_date", sent, sent_due, sent_trace),
        _entry(_cite_city(d), "notice_date", sent, sent_due, sent_trace),
        _entry(_cite_city(h), "notice_received", received, received_due, received_trace),
    ]
    answer = {
        "jurisdiction": JURISDICTION,
        "deadline": DEADLINE,
        "who": "owner",
        "kind": "due",
        "what": _WHAT,
        "law": {"as_of": _DAY_TEXT, "rule": "every provision is read as in force on the date asked"},
        "entries": entries,
    }
    if sent_due is not None and received_due is not None:
        answer["status"] = "determined"
        if sent_due > received_due:
            answer["due"] = sent_due.isoformat()
            answer["set_by"] = [_STATE_KEY, _CITY_D_KEY]
        elif received_due > sent_due:
            answer["due"] = received_due.isoformat()
            answer["set_by"] = [_CITY_H_KEY]
        else:
            answer["due"] = sent_due.isoformat()
            answer["set_by"] = [_STATE_KEY, _CITY_D_KEY, _CITY_H_KEY]
    else:
        answer["status"] = "undetermined"
        answer["due"] = None
        if sent_due is None and received_due is None:
            answer["missing_events"] = ["notice_date", "notice_received"]
            answer["reasons"] = [e["reason"] for e in entries]
        elif sent_due is None:
            answer["missing_events"] = ["notice_date"]
            answer["reasons"] = [entries[0]["reason"]] * 2
            answer["bound"] = {"at_least": received_due.isoformat(), "why": _BOUND_WHY}
        else:
            answer["missing_events"] = ["notice_received"]
            answer["reasons"] = [entries[2]["reason"]]
            answer["bound"] = {"at_least": sent_due.isoformat(), "why": _BOUND_WHY}
    answer["rule"] = _RULE
    answer["notes"] = [d.as_dict() for d in _NOTES]
    return answer


_BOUND_WHY = "the other provision(s) cannot be computed yet; dogcase will apply the later date once they can"
_RULE = "several provisions set this time: dogcase applies the later date (the owner keeps the longer time to act)"
