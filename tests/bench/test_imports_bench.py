"""`make bench-imports` at two small sizes: every dog of the generated file is brought in, the vaccination rows
are skipped, the check finds no problem, and the figures are written. Correctness only: no figure is judged
here (timing is the benchmark's, never a test's)."""

import json

from bench import imports


def test_the_import_benchmark_brings_in_every_dog(tmp_path, capsys):
    out = tmp_path / "bench-imports.json"
    assert imports.main(["--sizes", "150,300", "--out", str(out)]) == 0
    sizes = json.loads(out.read_text())["sizes"]
    assert [s["dogs"] for s in sizes] == [150, 300]
    for s in sizes:
        assert s["dogs_in_db"] == s["dogs"] == s["import"]["created"]["dog"]
        assert s["check"]["problems"] == 0
        assert (
            s["rows"]
            == s["dogs"] + s["import"]["skipped"]["rows of an animal's medical records, costs or log"]
        )
        assert s["floor"]["rows"] == s["rows"]
        assert all(
            s[step]["rows_per_s"] > 0 and s[step]["peak_mb"] > 0 for step in ("floor", "check", "import")
        )
    printed = capsys.readouterr().out
    assert "target: import >= 5,000 rows/s" in printed and "every dog brought in: True" in printed
