"""A small invented state and city, written as pack files: proof that a new jurisdiction needs no code."""

from __future__ import annotations

import shutil
from pathlib import Path

from dogcase.law.loader import PACKS_DIR

STATE = """\
format: 1
jurisdiction:
  id: north-state
  name: State of North (invented)
  kind: state
  timezone: America/Chicago
  case_prefix: NS
  source: {title: "North Statutes ch. 9 (invented for tests)"}
roles:
  - {id: warden, label: Dog warden}
designations:
  - {id: menacing, label: Menacing dog, defined_by: "9.1"}
calendar:
  holidays:
    - id: founders_day
      name: Founders Day
      rule: {fixed: {month: 3, day: 3}}
      observed: weekend_shift
      provision: "9.9"
    - id: harvest_day
      name: Harvest Day
      rule: {nth_weekday: {month: 10, weekday: 0, n: 1}}
      optional_for_cities: true
      provision: "9.9"
provisions:
  - id: "9.1"
    citation: "N.S. 9.1"
    text: "A menacing dog is one that, unprovoked, bites a person."
    ground:
      designation: menacing
      when: {all: [bit, {not: provoked}, {fact: victim, is: human}]}
  - id: "9.2"
    citation: "N.S. 9.2"
    text: "No dog is menacing for a bite on a trespasser."
    exemption:
      bars: [menacing]
      when: {fact: victim_conduct, includes: trespass_on_owner_premises}
  - id: "9.3"
    citation: "N.S. 9.3"
    text: "The owner may appeal within 10 days of the notice."
    deadline:
      id: owner.request_hearing
      who: owner
      what: request a hearing
      trigger: notice_date
      period: {amount: 10, unit: calendar_days}
      counting: mn_645_15
  - id: "9.4"
    citation: "N.S. 9.4"
    text: "Insurance of at least $100,000."
    requirement: {id: liability_coverage, for: [menacing], what: liability insurance, amount_usd: 100000}
  - id: "9.9"
    citation: "N.S. 9.9"
    text: "Founders Day and, where a city so chooses, Harvest Day are holidays."
"""

CITY = """\
format: 1
jurisdiction:
  id: south-city
  name: City of South (invented)
  kind: city
  layer_over: north-state
  timezone: America/Chicago
  case_prefix: SC
  source: {title: "South City Code § 1 (invented for tests)"}
  in_force: {from: 2020-01-01}
roles:
  - {id: marshal, label: City marshal}
designations:
  - {id: nuisance, label: Nuisance dog, defined_by: "1.a", state_counterpart: menacing}
calendar:
  observes: {harvest_day: true}
provisions:
  - id: "1.a"
    versions:
      - in_force: {from: 2020-01-01, until: 2024-01-01}
        text: "A nuisance dog is one that chases a person off its owner's land."
        ground:
          designation: nuisance
          when: {all: [chased_or_approached, {fact: place, in: [public, private_other]}]}
      - in_force: {from: 2024-01-01}
        text: "A nuisance dog is one that chases or bites a person off its owner's land."
        ground:
          designation: nuisance
          when:
            all:
              - {any: [chased_or_approached, bit]}
              - {fact: place, in: [public, private_other]}
    citation: "South City Code § 1(a)"
  - id: "1.b"
    citation: "South City Code § 1(b)"
    text: "The owner may ask for a hearing within 3 business days after the notice is sent."
    deadline:
      id: owner.request_hearing
      who: owner
      what: request a hearing
      trigger: notice_sent
      period: {amount: 3, unit: business_days}
      counting: business_days
  - id: "1.c"
    citation: "South City Code § 1(c)"
    text: "Insurance of at least $25,000."
    requirement: {id: liability_coverage, for: [nuisance], what: liability insurance, amount_usd: 25000}
"""


def write_invented_packs(folder: Path) -> Path:
    """A packs folder holding the shared fact vocabulary and the two invented packs."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(PACKS_DIR / "facts.yaml", folder / "facts.yaml")
    for name, text in (("north-state", STATE), ("south-city", CITY)):
        (folder / name).mkdir(exist_ok=True)
        (folder / name / "pack.yaml").write_text(text, encoding="utf-8")
    return folder
