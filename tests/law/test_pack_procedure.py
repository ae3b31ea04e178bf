"""Each pack's procedure rows (packs/<id>/cases.yaml, `procedure:`), one pytest case per row
(tests/law/procedure_rows.py says how a row is read)."""

from __future__ import annotations

import pytest

from dogcase.law import library
from tests.packs_library import shipped_pack_ids

from .procedure_rows import check_row, procedure_rows

ROWS = [pytest.param(pack_id, row, id=f"{pack_id}: {row['name']}") for pack_id, row in procedure_rows()]


@pytest.mark.parametrize(("pack_id", "row"), ROWS)
def test_procedure_case(pack_id, row):
    check_row(library().get(pack_id), pack_id, row)


def test_every_pack_with_a_procedure_has_procedure_rows():
    with_rows = {param.values[0] for param in ROWS}
    shipped = shipped_pack_ids()
    with_procedure = {pid for pid, pack in library().packs.items() if pack.procedure and pid in shipped}
    assert with_procedure <= with_rows
